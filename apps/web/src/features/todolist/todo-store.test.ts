import { describe, expect, it } from 'vitest';
import { addTodo, deleteTodo, editTodo, loadTodos } from './todo-store';

describe('todo list rules', () => {
  it('ignores blank text', () => {
    expect(addTodo([], '   ')).toEqual([]);
    const one = addTodo([], 'Ligar para o cliente');
    expect(editTodo(one, one[0]!.id, ' ')).toEqual(one);
  });

  it('keeps the created time when editing and moves the updated time', () => {
    const created = new Date('2026-01-01T10:00:00Z');
    const [todo] = addTodo([], '  Enviar proposta ', created);
    expect(todo).toMatchObject({ text: 'Enviar proposta', createdAt: created.toISOString(), updatedAt: created.toISOString() });
    const later = new Date('2026-01-02T11:30:00Z');
    const [edited] = editTodo([todo!], todo!.id, 'Enviar proposta revisada', later);
    expect(edited).toMatchObject({ text: 'Enviar proposta revisada', createdAt: created.toISOString(), updatedAt: later.toISOString() });
  });

  it('deletes one item and survives damaged storage', () => {
    const list = addTodo(addTodo([], 'a'), 'b');
    expect(deleteTodo(list, list[0]!.id).map((t) => t.text)).toEqual(['b']);
    localStorage.setItem('todos', '{not json');
    expect(loadTodos(localStorage, 'todos')).toEqual([]);
  });
});
