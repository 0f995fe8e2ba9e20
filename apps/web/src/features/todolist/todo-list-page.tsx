import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import { Button, IconButton, List, ListItem, ListItemText, Paper, Stack, TextField, Typography } from '@mui/material';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { STORAGE } from '../../api/storage-keys';
import { formatDateTime } from '../../i18n';
import { addTodo, deleteTodo, editTodo, loadTodos, type Todo } from './todo-store';

export default function TodoListPage() {
  const { t } = useTranslation();
  const [todos, setTodos] = useState<Todo[]>(() => loadTodos(localStorage, STORAGE.todos));
  const [text, setText] = useState('');
  const [editing, setEditing] = useState<string | null>(null);

  useEffect(() => {
    localStorage.setItem(STORAGE.todos, JSON.stringify(todos));
  }, [todos]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTodos((current) => (editing ? editTodo(current, editing, text) : addTodo(current, text)));
    setEditing(null);
    setText('');
  };

  return (
    <Paper sx={{ p: 2, maxWidth: 720 }} variant="outlined">
      <Typography variant="h5" component="h1" gutterBottom>
        {t('todo.title')}
      </Typography>
      <Stack component="form" direction="row" spacing={1} onSubmit={submit}>
        <TextField fullWidth size="small" label={t('todo.placeholder')} value={text} onChange={(e) => setText(e.target.value)} slotProps={{ htmlInput: { 'data-testid': 'todo-input', maxLength: 500 } }} />
        <Button type="submit" variant="contained" data-testid="todo-submit">
          {editing ? t('todo.save') : t('todo.add')}
        </Button>
      </Stack>
      {todos.length === 0 ? (
        <Typography color="text.secondary" sx={{ mt: 2 }}>
          {t('todo.empty')}
        </Typography>
      ) : (
        <List>
          {todos.map((todo) => (
            <ListItem
              key={todo.id}
              divider
              data-testid="todo-item"
              secondaryAction={
                <>
                  <IconButton
                    aria-label={t('todo.edit')}
                    data-testid="todo-edit"
                    onClick={() => {
                      setEditing(todo.id);
                      setText(todo.text);
                    }}
                  >
                    <EditIcon />
                  </IconButton>
                  <IconButton aria-label={t('todo.delete')} data-testid="todo-delete" onClick={() => setTodos((current) => deleteTodo(current, todo.id))}>
                    <DeleteIcon />
                  </IconButton>
                </>
              }
            >
              <ListItemText primary={todo.text} secondary={t('todo.updated', { date: formatDateTime(todo.updatedAt) })} />
            </ListItem>
          ))}
        </List>
      )}
    </Paper>
  );
}
