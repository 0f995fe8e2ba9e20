export interface Todo {
  id: string;
  text: string;
  createdAt: string;
  updatedAt: string;
}

/** The local task list (spec part 2 §2.20): kept only in this browser. */
export function loadTodos(storage: Storage, key: string): Todo[] {
  try {
    const parsed = JSON.parse(storage.getItem(key) ?? '[]') as unknown;
    return Array.isArray(parsed) ? (parsed as Todo[]) : [];
  } catch {
    return [];
  }
}

/** Blank text is ignored. */
export function addTodo(todos: Todo[], text: string, now = new Date()): Todo[] {
  const trimmed = text.trim();
  if (!trimmed) return todos;
  const stamp = now.toISOString();
  return [...todos, { id: `${now.getTime()}-${Math.random().toString(36).slice(2, 8)}`, text: trimmed, createdAt: stamp, updatedAt: stamp }];
}

/** Editing keeps the created time and moves the updated time; blank text leaves the item as it was. */
export function editTodo(todos: Todo[], id: string, text: string, now = new Date()): Todo[] {
  const trimmed = text.trim();
  if (!trimmed) return todos;
  return todos.map((todo) => (todo.id === id ? { ...todo, text: trimmed, updatedAt: now.toISOString() } : todo));
}

export function deleteTodo(todos: Todo[], id: string): Todo[] {
  return todos.filter((todo) => todo.id !== id);
}
