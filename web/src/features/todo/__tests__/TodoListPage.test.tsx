import { beforeEach, describe, expect, it } from '@jest/globals';
import { fireEvent } from '@testing-library/react';
import type { UserDto } from '@wa/contracts';
import { sessionStarted } from '../../../app/session';
import { makeStore } from '../../../app/store';
import { renderWithProviders } from '../../../test/render';
import TodoListPage from '../TodoListPage';
import { parseTasks } from '../todo-rules';

function renderPage() {
  const store = makeStore();
  store.dispatch(
    sessionStarted({ token: 't', user: { id: 7, name: 'Ana', companyId: 3, profile: 'user', queueIds: [] } as unknown as UserDto }),
  );
  return renderWithProviders(<TodoListPage />, { store, route: '/todolist' });
}

const stored = () => parseTasks(localStorage.getItem('todolist:3:7'));

beforeEach(() => localStorage.clear());

describe('/todolist', () => {
  it('adds, edits through the input and deletes tasks, kept in local storage for the user of the company', () => {
    const r = renderPage();
    const input = r.getByTestId('todo-input') as HTMLInputElement;
    expect(r.getByTestId('todo-empty').textContent).toBe('Nenhuma tarefa');

    fireEvent.change(input, { target: { value: '   ' } });
    fireEvent.submit(input.closest('form') as HTMLFormElement);
    expect(r.queryAllByTestId('todo-item')).toHaveLength(0);

    fireEvent.change(input, { target: { value: 'Ligar para a Ana' } });
    fireEvent.click(r.getByTestId('todo-add'));
    fireEvent.change(input, { target: { value: 'Enviar proposta' } });
    fireEvent.click(r.getByTestId('todo-add'));
    expect(r.getAllByTestId('todo-text').map((e) => e.textContent)).toEqual(['Ligar para a Ana', 'Enviar proposta']);
    expect(input.value).toBe('');
    expect(r.getAllByTestId('todo-dates')[0].textContent).toMatch(/^Criada em \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
    expect(stored().map((t) => t.text)).toEqual(['Ligar para a Ana', 'Enviar proposta']);

    fireEvent.click(r.getAllByTestId('todo-edit')[0]);
    expect(input.value).toBe('Ligar para a Ana');
    expect(r.getByTestId('todo-add').textContent).toBe('Salvar');
    fireEvent.change(input, { target: { value: 'Ligar para a Ana amanhã' } });
    fireEvent.click(r.getByTestId('todo-add'));
    expect(r.getAllByTestId('todo-text').map((e) => e.textContent)).toEqual(['Ligar para a Ana amanhã', 'Enviar proposta']);
    expect(r.getByTestId('todo-add').textContent).toBe('Adicionar');

    fireEvent.click(r.getAllByTestId('todo-delete')[1]);
    expect(r.getAllByTestId('todo-text').map((e) => e.textContent)).toEqual(['Ligar para a Ana amanhã']);
    expect(stored().map((t) => t.text)).toEqual(['Ligar para a Ana amanhã']);
  });

  it('shows what was stored before', () => {
    localStorage.setItem(
      'todolist:3:7',
      JSON.stringify([{ id: 'a', text: 'Antiga', createdAt: '2026-01-02T10:00:00.000Z', updatedAt: '2026-01-03T10:00:00.000Z' }]),
    );
    localStorage.setItem(
      'todolist:3:8',
      JSON.stringify([{ id: 'b', text: 'De outro usuário', createdAt: '2026-01-02T10:00:00.000Z', updatedAt: '2026-01-02T10:00:00.000Z' }]),
    );
    const r = renderPage();
    expect(r.getAllByTestId('todo-text').map((e) => e.textContent)).toEqual(['Antiga']);
    expect(r.getByTestId('todo-dates').textContent).toContain('Atualizada em');
  });
});
