/** A queue's chatbot option as `GET /queue-options` answers it: each option carries its whole subtree. */
export interface QueueOption {
  id: number;
  queueId: number;
  parentId: number | null;
  title: string;
  message: string;
  /** What the customer types to choose it ("1", "2", ...). */
  option: string;
  mediaName: string | null;
  mediaUrl: string | null;
  children: QueueOption[];
  createdAt: string;
  updatedAt: string;
}

/** One line of the editor: the option, how deep it sits and the keys a customer types to reach it. */
export interface OptionRow {
  node: QueueOption;
  depth: number;
  /** The option keys from the root, e.g. ['2', '1'] for "2, then 1". */
  path: string[];
}

/** Customers read a level in option-number order ("2" before "10"). */
function byOptionNumber(a: Pick<QueueOption, 'option' | 'id'>, b: Pick<QueueOption, 'option' | 'id'>): number {
  return Number(a.option) - Number(b.option) || a.option.localeCompare(b.option) || a.id - b.id;
}

/** Depth-first, each level sorted: the order in which the editor lists the tree. */
export function flattenOptionTree(tree: readonly QueueOption[]): OptionRow[] {
  const rows: OptionRow[] = [];
  const walk = (level: readonly QueueOption[], depth: number, path: string[]) => {
    for (const node of [...level].sort(byOptionNumber)) {
      const here = [...path, node.option];
      rows.push({ node, depth, path: here });
      walk(node.children, depth + 1, here);
    }
  };
  walk(tree, 0, []);
  return rows;
}

export function findOption(tree: readonly QueueOption[], id: number): QueueOption | null {
  for (const node of tree) {
    if (node.id === id) return node;
    const inside = findOption(node.children, id);
    if (inside) return inside;
  }
  return null;
}

/** The options one level holds: the roots for `parentId` null. */
export function siblingsOf(tree: readonly QueueOption[], parentId: number | null): QueueOption[] {
  if (parentId === null) return [...tree];
  return findOption(tree, parentId)?.children ?? [];
}

/** The smallest free key at a level (what the server picks when none is typed). */
export function nextOptionNumber(siblings: readonly Pick<QueueOption, 'option'>[]): string {
  const used = new Set(siblings.map((s) => s.option));
  let next = 1;
  while (used.has(String(next))) next += 1;
  return String(next);
}

/** A created option goes under its parent (or among the roots), in its place in the order. */
export function insertOption(tree: readonly QueueOption[], created: QueueOption): QueueOption[] {
  const node = { ...created, children: created.children ?? [] };
  if (created.parentId === null) return [...tree, node].sort(byOptionNumber);
  return tree.map((item) =>
    item.id === created.parentId
      ? { ...item, children: [...item.children, node].sort(byOptionNumber) }
      : { ...item, children: insertOption(item.children, created) },
  );
}

/** An edited option (a PUT answers it without children) keeps its subtree. */
export function replaceOption(tree: readonly QueueOption[], updated: QueueOption): QueueOption[] {
  return tree
    .map((item) => (item.id === updated.id ? { ...updated, children: item.children } : { ...item, children: replaceOption(item.children, updated) }))
    .sort(byOptionNumber);
}

/** Deleting an option deletes its subtree (the server does the same). */
export function removeOption(tree: readonly QueueOption[], id: number): QueueOption[] {
  return tree.filter((item) => item.id !== id).map((item) => ({ ...item, children: removeOption(item.children, id) }));
}

/** How many options go with a node when it is deleted (itself included). */
export function subtreeSize(node: QueueOption): number {
  return 1 + node.children.reduce((sum, child) => sum + subtreeSize(child), 0);
}
