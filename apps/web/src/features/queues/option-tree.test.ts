import { describe, expect, it } from 'vitest';
import {
  findOption,
  flattenOptionTree,
  insertOption,
  nextOptionNumber,
  removeOption,
  replaceOption,
  siblingsOf,
  subtreeSize,
  type QueueOption,
} from './option-tree';

function option(id: number, key: string, parentId: number | null, children: QueueOption[] = []): QueueOption {
  return { id, queueId: 1, parentId, title: `T${id}`, message: '', option: key, mediaName: null, mediaUrl: null, children, createdAt: '', updatedAt: '' };
}

// 1 Sales (1.1 New, 1.2 Used), 2 Support (2.1 Hardware (2.1.1 Screen)), 10 Other
const tree = (): QueueOption[] => [
  option(20, '10', null),
  option(2, '2', null, [option(21, '1', 2, [option(211, '1', 21)])]),
  option(1, '1', null, [option(12, '2', 1), option(11, '1', 1)]),
];

describe('queue option tree', () => {
  it('lists the tree depth-first with each level in the order the customer reads it', () => {
    const rows = flattenOptionTree(tree());
    expect(rows.map((r) => [r.node.id, r.depth, r.path.join('.')])).toEqual([
      [1, 0, '1'],
      [11, 1, '1.1'],
      [12, 1, '1.2'],
      [2, 0, '2'],
      [21, 1, '2.1'],
      [211, 2, '2.1.1'],
      [20, 0, '10'],
    ]);
  });

  it('finds a node at any depth and the siblings of a level', () => {
    expect(findOption(tree(), 211)?.title).toBe('T211');
    expect(findOption(tree(), 999)).toBeNull();
    expect(siblingsOf(tree(), null).map((o) => o.id).sort()).toEqual([1, 2, 20]);
    expect(siblingsOf(tree(), 1).map((o) => o.id).sort()).toEqual([11, 12]);
    expect(siblingsOf(tree(), 999)).toEqual([]);
  });

  it('proposes the smallest free number of a level', () => {
    expect(nextOptionNumber([])).toBe('1');
    expect(nextOptionNumber(siblingsOf(tree(), null))).toBe('3');
    expect(nextOptionNumber([{ option: '2' }, { option: '3' }])).toBe('1');
  });

  it('puts a created option under its parent, in order, and a root among the roots', () => {
    const withChild = insertOption(tree(), option(13, '3', 1));
    expect(findOption(withChild, 1)?.children.map((c) => c.option)).toEqual(['1', '2', '3']);
    const deep = insertOption(withChild, option(2111, '1', 211));
    expect(findOption(deep, 211)?.children.map((c) => c.id)).toEqual([2111]);
    const root = insertOption(deep, option(3, '3', null));
    expect(root.map((r) => r.option)).toEqual(['1', '2', '3', '10']);
  });

  it('keeps the subtree of an edited option, whose answer has no children', () => {
    const edited = replaceOption(tree(), { ...option(2, '5', null), title: 'Suporte' });
    const node = findOption(edited, 2);
    expect(node?.title).toBe('Suporte');
    expect(node?.children.map((c) => c.id)).toEqual([21]);
    expect(edited.map((r) => r.option)).toEqual(['1', '5', '10']);
  });

  it('removes an option with everything under it', () => {
    const before = tree();
    expect(subtreeSize(findOption(before, 2)!)).toBe(3);
    const after = removeOption(before, 2);
    expect(findOption(after, 21)).toBeNull();
    expect(findOption(after, 211)).toBeNull();
    expect(flattenOptionTree(after)).toHaveLength(4);
    expect(flattenOptionTree(removeOption(before, 211))).toHaveLength(6);
  });
});
