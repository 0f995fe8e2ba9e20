import AddCircleOutlined from '@mui/icons-material/AddCircleOutlined';
import AttachFile from '@mui/icons-material/AttachFile';
import Close from '@mui/icons-material/Close';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Edit from '@mui/icons-material/Edit';
import SubdirectoryArrowRight from '@mui/icons-material/SubdirectoryArrowRight';
import { Alert, Box, Button, Chip, CircularProgress, IconButton, Link, Paper, Stack, Typography } from '@mui/material';
import { Tooltip } from '../../components/tooltip';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session';
import { ItemConfirmationDialog } from '../../components/confirmation-dialog';
import { HiddenFileInput } from '../../components/hidden-file-input';
import { toastError, toastSuccess } from '../../components/toast';
import { flattenOptionTree, removeOption, replaceOption, subtreeSize, type QueueOption } from './option-tree';
import { QueueOptionDialog, type OptionEditing } from './queue-option-dialog';
import { queueOptionsKey, useQueueOptions } from './queues-queries';

/** Indentation per level of the tree, in theme spacing units. */
const LEVEL_INDENT = 3;

/**
 * The queue's chatbot option tree (spec part 2 §2.3): every level listed in the
 * customer's order, each node with add-child, edit and delete; a leaf (no
 * children) may carry an attachment sent with its message. Each action is saved
 * at once, independent of the queue form around it.
 */
export function QueueOptionsEditor({ queueId }: { queueId: number }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const queryClient = useQueryClient();
  const options = useQueueOptions(queueId);
  const tree = options.data ?? [];
  const rows = flattenOptionTree(tree);
  const [editing, setEditing] = useState<OptionEditing | null>(null);
  const [deleting, setDeleting] = useState<QueueOption | null>(null);
  const [busyId, setBusyId] = useState<number | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const attachTo = useRef<number | null>(null);

  const setTree = (update: (current: QueueOption[]) => QueueOption[]) =>
    queryClient.setQueryData<QueueOption[]>(queueOptionsKey(queueId), (current) => update(current ?? []));

  const remove = async (node: QueueOption) => {
    setBusyId(node.id);
    try {
      await api.delete(`/queue-options/${node.id}`);
      setTree((current) => removeOption(current, node.id));
      toastSuccess(t('queues.options.deleted'));
    } catch (error) {
      toastError(error);
    } finally {
      setBusyId(null);
    }
  };

  const upload = async (id: number, file: File) => {
    setBusyId(id);
    try {
      const body = new FormData();
      body.append('file', file);
      const saved = await api.post<QueueOption>(`/queue-options/${id}/media-upload`, body);
      setTree((current) => replaceOption(current, saved));
      toastSuccess(t('queues.options.attachmentSaved'));
    } catch (error) {
      toastError(error);
    } finally {
      setBusyId(null);
    }
  };

  const removeMedia = async (id: number) => {
    setBusyId(id);
    try {
      const saved = await api.delete<QueueOption>(`/queue-options/${id}/media-upload`);
      setTree((current) => replaceOption(current, saved));
      toastSuccess(t('queues.options.attachmentRemoved'));
    } catch (error) {
      toastError(error);
    } finally {
      setBusyId(null);
    }
  };

  return (
    <Stack spacing={1.5} data-testid="queue-options-editor">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
        <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }}>
          {t('queues.options.hint')}
        </Typography>
        <Button variant="outlined" startIcon={<AddCircleOutlined />} onClick={() => setEditing({ mode: 'add', parent: null })} data-testid="queue-option-add-root">
          {t('queues.options.addRoot')}
        </Button>
      </Stack>

      {options.isPending ? (
        <Box role="status" sx={{ display: 'flex', justifyContent: 'center', p: 2 }}>
          <CircularProgress size={28} aria-label={t('common.loading')} />
        </Box>
      ) : options.isError ? (
        <Alert severity="error">{t('queues.options.loadError')}</Alert>
      ) : rows.length === 0 ? (
        <Typography color="text.secondary" sx={{ p: 2, textAlign: 'center' }} data-testid="queue-options-empty">
          {t('queues.options.empty')}
        </Typography>
      ) : (
        <Stack spacing={1} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {rows.map(({ node, depth, path }) => {
            const leaf = node.children.length === 0;
            const busy = busyId === node.id;
            return (
              <Box component="li" key={node.id} sx={{ pl: { xs: depth * 1.5, sm: depth * LEVEL_INDENT } }}>
                <Paper variant="outlined" sx={{ p: 1, display: 'flex', gap: 1, alignItems: 'flex-start' }} data-testid="queue-option-node" data-option-path={path.join('.')} data-option-id={node.id}>
                  {depth > 0 ? <SubdirectoryArrowRight fontSize="small" color="action" sx={{ mt: 0.5 }} /> : null}
                  <Chip size="small" color="primary" label={node.option} sx={{ mt: 0.25, fontWeight: 600 }} aria-label={path.join(' › ')} />
                  <Box sx={{ flex: 1, minWidth: 0 }}>
                    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                      <Typography variant="body2" sx={{ fontWeight: 500, wordBreak: 'break-word' }} data-testid="queue-option-node-title">
                        {node.title}
                      </Typography>
                      {leaf ? (
                        <Tooltip title={t('queues.options.leafHint')}>
                          <Chip size="small" variant="outlined" label={t('queues.options.leaf')} />
                        </Tooltip>
                      ) : null}
                    </Stack>
                    {node.message ? (
                      <Typography variant="caption" color="text.secondary" sx={{ display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden', whiteSpace: 'pre-wrap' }}>
                        {node.message}
                      </Typography>
                    ) : null}
                    {node.mediaName ? (
                      <Box sx={{ mt: 0.5 }}>
                        <Chip
                          size="small"
                          icon={<AttachFile />}
                          label={
                            node.mediaUrl ? (
                              <Link href={node.mediaUrl} target="_blank" rel="noopener noreferrer" underline="hover" color="inherit">
                                {node.mediaName}
                              </Link>
                            ) : (
                              node.mediaName
                            )
                          }
                          onDelete={busy ? undefined : () => void removeMedia(node.id)}
                          deleteIcon={<Close aria-label={t('queues.options.removeAttachment')} />}
                          sx={{ maxWidth: '100%' }}
                          data-testid="queue-option-attachment"
                        />
                      </Box>
                    ) : null}
                  </Box>
                  <Stack direction="row" sx={{ flexShrink: 0, flexWrap: 'wrap', justifyContent: 'flex-end' }}>
                    {busy ? <CircularProgress size={20} sx={{ m: 0.75 }} aria-label={t('common.loading')} /> : null}
                    {leaf && !node.mediaName ? (
                      <Tooltip title={t('queues.options.attach')}>
                        <IconButton
                          size="small"
                          aria-label={t('queues.options.attach')}
                          disabled={busy}
                          onClick={() => {
                            attachTo.current = node.id;
                            fileInput.current?.click();
                          }}
                          data-testid="queue-option-attach"
                        >
                          <AttachFile fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    ) : null}
                    <Tooltip title={t('queues.options.addChild')}>
                      <IconButton size="small" aria-label={t('queues.options.addChild')} disabled={busy} onClick={() => setEditing({ mode: 'add', parent: node })} data-testid="queue-option-add-child">
                        <AddCircleOutlined fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title={t('queues.options.edit')}>
                      <IconButton size="small" aria-label={t('queues.options.edit')} disabled={busy} onClick={() => setEditing({ mode: 'edit', node })} data-testid="queue-option-edit">
                        <Edit fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title={t('queues.options.delete')}>
                      <IconButton size="small" aria-label={t('queues.options.delete')} disabled={busy} onClick={() => setDeleting(node)} data-testid="queue-option-delete">
                        <DeleteOutlined fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </Stack>
                </Paper>
              </Box>
            );
          })}
        </Stack>
      )}

      <HiddenFileInput
        inputRef={fileInput}
        testId="queue-option-file"
        onPick={(file) => {
          const id = attachTo.current;
          if (id !== null) void upload(id, file);
        }}
      />
      {editing ? <QueueOptionDialog queueId={queueId} tree={tree} editing={editing} onClose={() => setEditing(null)} /> : null}
      <ItemConfirmationDialog
        item={deleting}
        title={t('queues.options.deleteTitle', { title: deleting?.title ?? '' })}
        onClose={() => setDeleting(null)}
        onConfirm={(target) => void remove(target)}
      >
        {t('queues.options.deleteMessage', { total: deleting ? subtreeSize(deleting) : 1 })}
      </ItemConfirmationDialog>
    </Stack>
  );
}
