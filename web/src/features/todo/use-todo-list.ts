import { useCallback, useEffect, useState } from 'react';
import { readItem, writeItem } from '../../app/storage';
import { addTask, deleteTask, editTask, newTaskId, parseTasks, serializeTasks, todoStorageKey, type TodoTask } from './todo-rules';

/** The user's tasks in local storage, kept in step with other tabs of the same browser. */
export function useTodoList(companyId: number, userId: number) {
  const key = todoStorageKey(companyId, userId);
  const [tasks, setTasks] = useState<readonly TodoTask[]>(() => parseTasks(readItem(key)));

  useEffect(() => {
    setTasks(parseTasks(readItem(key)));
    const onStorage = (e: StorageEvent) => {
      if (e.key === key || e.key === null) setTasks(parseTasks(e.newValue ?? readItem(key)));
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [key]);

  const change = useCallback(
    (next: (current: readonly TodoTask[]) => readonly TodoTask[]) => {
      // read again: another tab may have written since this one last looked
      const current = parseTasks(readItem(key));
      const updated = next(current);
      if (updated !== current) writeItem(key, serializeTasks(updated));
      setTasks(updated);
    },
    [key],
  );

  return {
    tasks,
    add: useCallback((text: string) => change((list) => addTask(list, text, new Date(), newTaskId())), [change]),
    edit: useCallback((id: string, text: string) => change((list) => editTask(list, id, text, new Date())), [change]),
    remove: useCallback((id: string) => change((list) => deleteTask(list, id)), [change]),
  };
}
