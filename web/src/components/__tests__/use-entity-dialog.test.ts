import { describe, expect, it, jest } from '@jest/globals';
import { act, renderHook } from '@testing-library/react';
import { useEntityDialog } from '../use-entity-dialog';

type Values = { name: string; color: string };
const validate = (v: Values) => ({ name: v.name.trim() ? undefined : 'required', color: undefined });
const options = {
  initial: (): Values => ({ name: '', color: '#fff' }),
  validate,
  problemText: (_key: string, problem: string) => `problem:${problem}`,
};
const refusal = { status: 400, data: { error: 'ERR_VALIDATION', details: [{ field: 'color', messages: ['cor inválida'] }] } };

describe('useEntityDialog', () => {
  it("shows a field's problem only once it was left or the form sent", async () => {
    const { result } = renderHook(() => useEntityDialog(options));
    expect(result.current.errorOf('name')).toBeUndefined();
    act(() => result.current.touch('name'));
    expect(result.current.errorOf('name')).toBe('problem:required');
  });

  it('a send with a problem does not save, and then shows every problem', async () => {
    const save = jest.fn(async () => undefined);
    const { result } = renderHook(() => useEntityDialog(options));
    await act(() => result.current.handleSubmit(save)());
    expect(save).not.toHaveBeenCalled();
    expect(result.current.errorOf('name')).toBe('problem:required');
  });

  it("keeps the server's field errors until the field changes", async () => {
    const failed = jest.fn();
    const { result } = renderHook(() => useEntityDialog(options));
    act(() => result.current.set('name', 'Vendas'));
    await act(() => result.current.handleSubmit(async () => Promise.reject(refusal), failed)());
    expect(failed).toHaveBeenCalledWith(refusal, { color: 'cor inválida' });
    expect(result.current.errorOf('color')).toBe('cor inválida');
    act(() => result.current.set('color', '#000'));
    expect(result.current.errorOf('color')).toBeUndefined();
  });
});
