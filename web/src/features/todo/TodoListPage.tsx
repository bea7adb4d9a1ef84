import { Box, Button, Flex, Heading, HStack, IconButton, Input, Stack, Text } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MdAdd, MdDelete, MdEdit, MdSave } from 'react-icons/md';
import { selectUser } from '../../app/session';
import { useAppSelector } from '../../app/store';
import { formatTaskDate, wasEdited, type TodoTask } from './todo-rules';
import { useTodoList } from './use-todo-list';

/** One task: its text, when it was made (and changed), edit and delete. */
function TaskRow({
  task,
  editing,
  onEdit,
  onDelete,
}: {
  task: TodoTask;
  editing: boolean;
  onEdit(task: TodoTask): void;
  onDelete(id: string): void;
}) {
  const { t } = useTranslation();
  return (
    <Flex
      as="li"
      gap="3"
      px="4"
      py="3"
      align="center"
      borderBottomWidth="1px"
      bg={editing ? 'teal.subtle' : undefined}
      data-testid="todo-item"
      data-task-id={task.id}
    >
      <Box flex="1" minW="0">
        <Text whiteSpace="pre-wrap" wordBreak="break-word" data-testid="todo-text">
          {task.text}
        </Text>
        <Text textStyle="xs" color="fg.muted" data-testid="todo-dates">
          {t('todo.created', { date: formatTaskDate(task.createdAt) })}
          {wasEdited(task) ? ` · ${t('todo.updated', { date: formatTaskDate(task.updatedAt) })}` : ''}
        </Text>
      </Box>
      <HStack gap="1">
        <IconButton
          size="xs"
          variant="ghost"
          aria-label={t('todo.edit')}
          title={t('todo.edit')}
          onClick={() => onEdit(task)}
          data-testid="todo-edit"
        >
          <MdEdit />
        </IconButton>
        <IconButton
          size="xs"
          variant="ghost"
          colorPalette="red"
          aria-label={t('todo.delete')}
          title={t('todo.delete')}
          onClick={() => onDelete(task.id)}
          data-testid="todo-delete"
        >
          <MdDelete />
        </IconButton>
      </HStack>
    </Flex>
  );
}

/** /todolist (spec 01 §2): the user's own tasks, kept only in this browser; add, edit (through the input) and delete. */
export default function TodoListPage() {
  const { t } = useTranslation();
  const user = useAppSelector(selectUser);
  const { tasks, add, edit, remove } = useTodoList(user?.companyId ?? 0, user?.id ?? 0);
  const [text, setText] = useState('');
  const [editingId, setEditingId] = useState<string | null>(null);
  const editing = editingId !== null && tasks.some((task) => task.id === editingId);

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!text.trim()) return;
    if (editing && editingId) edit(editingId, text);
    else add(text);
    setText('');
    setEditingId(null);
  }

  function startEdit(task: TodoTask) {
    setEditingId(task.id);
    setText(task.text);
  }

  function cancelEdit() {
    setEditingId(null);
    setText('');
  }

  function onDelete(id: string) {
    remove(id);
    if (id === editingId) cancelEdit();
  }

  return (
    <Box p="4" h="full" overflowY="auto" data-testid="todo-page">
      <Stack gap="4" maxW="3xl" mx="auto">
        <Heading size="lg">{t('todo.title')}</Heading>
        <form onSubmit={submit} noValidate>
          <HStack gap="2">
            <Input
              flex="1"
              bg="bg"
              placeholder={t('todo.placeholder')}
              aria-label={t('todo.placeholder')}
              value={text}
              onChange={(e) => setText(e.target.value)}
              onKeyDown={(e) => e.key === 'Escape' && editing && cancelEdit()}
              data-testid="todo-input"
            />
            <Button type="submit" colorPalette="teal" disabled={!text.trim()} data-testid="todo-add" data-mode={editing ? 'save' : 'add'}>
              {editing ? <MdSave /> : <MdAdd />}
              {editing ? t('todo.save') : t('todo.add')}
            </Button>
            {editing && (
              <Button type="button" variant="outline" onClick={cancelEdit} data-testid="todo-cancel">
                {t('todo.cancel')}
              </Button>
            )}
          </HStack>
        </form>
        <Box bg="bg" borderRadius="md" borderWidth="1px" overflow="hidden">
          {tasks.length === 0 ? (
            <Text p="4" color="fg.muted" textAlign="center" data-testid="todo-empty">
              {t('todo.empty')}
            </Text>
          ) : (
            <Box as="ul" listStyleType="none" m="0" p="0" data-testid="todo-list">
              {tasks.map((task) => (
                <TaskRow key={task.id} task={task} editing={task.id === editingId} onEdit={startEdit} onDelete={onDelete} />
              ))}
            </Box>
          )}
        </Box>
      </Stack>
    </Box>
  );
}
