import { describe, expect, it } from '@jest/globals';
import {
  addTask,
  deleteTask,
  editTask,
  formatTaskDate,
  newTaskId,
  parseTasks,
  serializeTasks,
  todoStorageKey,
  wasEdited,
} from '../todo-rules';

const at = (h: number, m = 0) => new Date(2026, 10, 24, h, m);

describe('to-do list (spec 01 §2 "Other dialogs")', () => {
  it('adds a task with its text and times; blank text is ignored', () => {
    const list = addTask([], '  Ligar para a Ana  ', at(9, 5), 'a');
    expect(list).toEqual([{ id: 'a', text: 'Ligar para a Ana', createdAt: at(9, 5).toISOString(), updatedAt: at(9, 5).toISOString() }]);
    expect(addTask(list, ' \n\t ', at(10), 'b')).toBe(list);
    expect(addTask(list, 'Enviar proposta', at(10), 'b').map((t) => t.text)).toEqual(['Ligar para a Ana', 'Enviar proposta']);
  });

  it('edits the text and its updatedAt; blank text, the same text or an unknown task change nothing', () => {
    const list = addTask(addTask([], 'Um', at(9), 'a'), 'Dois', at(9), 'b');
    const edited = editTask(list, 'b', ' Dois e meio ', at(11, 30));
    expect(edited[1]).toEqual({ id: 'b', text: 'Dois e meio', createdAt: at(9).toISOString(), updatedAt: at(11, 30).toISOString() });
    expect(edited[0]).toBe(list[0]);
    expect(wasEdited(edited[1])).toBe(true);
    expect(wasEdited(edited[0])).toBe(false);
    expect(editTask(list, 'b', '   ', at(12))).toBe(list);
    expect(editTask(list, 'b', 'Dois', at(12))).toBe(list);
    expect(editTask(list, 'z', 'Três', at(12))).toBe(list);
  });

  it('deletes a task', () => {
    const list = addTask(addTask([], 'Um', at(9), 'a'), 'Dois', at(9), 'b');
    expect(deleteTask(list, 'a').map((t) => t.id)).toEqual(['b']);
    expect(deleteTask(list, 'z')).toBe(list);
  });

  it('keeps one list per user of a company, and reads back what it stored (dropping anything broken)', () => {
    expect(todoStorageKey(3, 7)).toBe('todolist:3:7');
    expect(todoStorageKey(3, 7)).not.toBe(todoStorageKey(4, 7));
    const list = addTask([], 'Um', at(9), 'a');
    expect(parseTasks(serializeTasks(list))).toEqual(list);
    expect(parseTasks(null)).toEqual([]);
    expect(parseTasks('{not json')).toEqual([]);
    expect(parseTasks('{"a":1}')).toEqual([]);
    expect(parseTasks(JSON.stringify([...list, { id: 1, text: 'x' }, null]))).toEqual(list);
  });

  it('shows dates as dd/MM/yyyy HH:mm', () => {
    expect(formatTaskDate(at(9, 5).toISOString())).toBe('24/11/2026 09:05');
    expect(formatTaskDate('nope')).toBe('');
  });

  it('makes different ids', () => {
    const now = at(9);
    expect(newTaskId(now, () => 0.1)).not.toBe(newTaskId(now, () => 0.2));
    expect(newTaskId(now, () => 0)).toMatch(/^[0-9a-z]+-0{6}$/);
  });
});
