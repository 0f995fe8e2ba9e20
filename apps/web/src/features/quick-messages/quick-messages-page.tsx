import AddCircleOutlined from '@mui/icons-material/AddCircleOutlined';
import AttachFile from '@mui/icons-material/AttachFile';
import Search from '@mui/icons-material/Search';
import {
  Box,
  Button,
  Chip,
  CircularProgress,
  InputAdornment,
  Link,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type UIEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { QuickMessage } from '../../api/desk-types';
import { useSession } from '../../api/session';
import { ConfirmationDialog } from '../../components/confirmation-dialog';
import { DeleteButton, EditButton } from '../../components/row-actions';
import { toastError, toastSuccess } from '../../components/toast';
import { useDebouncedValue } from '../../components/use-debounced-value';
import { QuickMessageDialog } from './quick-message-dialog';
import { cacheRemovedQuickMessage, useQuickMessageEvents, useQuickMessagePages } from './quick-messages-queries';

/** Spec part 2 §9: the next page loads within 100 px of the bottom. */
const SCROLL_THRESHOLD_PX = 100;

type DialogState = { open: false } | { open: true; record: QuickMessage | null };

/** Quick messages page (spec part 2 §2.5): search, table with shortcode and attachment, add/edit/delete. */
export default function QuickMessagesPage() {
  const { t } = useTranslation();
  const { api } = useSession();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim().toLowerCase());
  const pages = useQuickMessagePages(searchParam);
  const [dialog, setDialog] = useState<DialogState>({ open: false });
  const [deleting, setDeleting] = useState<QuickMessage | null>(null);
  useQuickMessageEvents();

  const records = pages.data?.pages.flatMap((page) => page.records) ?? [];
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = pages;

  const onScroll = (event: UIEvent<HTMLElement>) => {
    const element = event.currentTarget;
    if (element.scrollHeight - element.scrollTop - element.clientHeight > SCROLL_THRESHOLD_PX) return;
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  };

  const remove = async (record: QuickMessage) => {
    try {
      await api.delete(`/quick-messages/${record.id}`);
      cacheRemovedQuickMessage(queryClient, record.id);
      toastSuccess(t('quickMessages.deleted'));
    } catch (error) {
      toastError(error);
    }
  };

  return (
    <Stack spacing={2} sx={{ height: { md: 'calc(100vh - 96px)' } }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
        <Typography variant="h5" component="h1" sx={{ flexGrow: 1 }}>
          {t('quickMessages.title')}
        </Typography>
        <TextField
          size="small"
          placeholder={t('quickMessages.search')}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          slotProps={{
            htmlInput: { 'data-testid': 'quick-message-search', 'aria-label': t('common.search') },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <Search fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
        <Button variant="contained" startIcon={<AddCircleOutlined />} onClick={() => setDialog({ open: true, record: null })} data-testid="quick-message-add">
          {t('quickMessages.add')}
        </Button>
      </Stack>

      <Paper variant="outlined" sx={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' }}>
        <TableContainer onScroll={onScroll} sx={{ flex: 1, maxHeight: { xs: 'calc(100vh - 220px)', md: 'none' }, overflowY: 'auto' }}>
          <Table stickyHeader size="small">
            <TableHead>
              <TableRow>
                <TableCell>{t('quickMessages.columns.shortcode')}</TableCell>
                <TableCell>{t('quickMessages.columns.attachment')}</TableCell>
                <TableCell align="right">{t('quickMessages.columns.actions')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {records.map((record) => (
                <TableRow key={record.id} hover data-testid="quick-message-row" data-quick-message-id={record.id}>
                  <TableCell sx={{ wordBreak: 'break-word' }}>
                    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                      <Typography variant="body2" component="span" sx={{ fontWeight: 500 }}>
                        /{record.shortcode}
                      </Typography>
                      {record.geral ? <Chip size="small" label={t('quickMessages.shared')} /> : null}
                      {record.status === false ? <Chip size="small" variant="outlined" label={t('quickMessages.inactive')} /> : null}
                    </Stack>
                    {record.message ? (
                      <Typography variant="caption" color="text.secondary" sx={{ display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}>
                        {record.message}
                      </Typography>
                    ) : null}
                  </TableCell>
                  <TableCell sx={{ wordBreak: 'break-all' }}>
                    {record.mediaName ? (
                      <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
                        <AttachFile fontSize="small" color="action" />
                        {record.mediaUrl ? (
                          <Link href={record.mediaUrl} target="_blank" rel="noopener noreferrer">
                            {record.mediaName}
                          </Link>
                        ) : (
                          <span>{record.mediaName}</span>
                        )}
                      </Stack>
                    ) : null}
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <EditButton onClick={() => setDialog({ open: true, record })} testId="quick-message-edit" />
                    <DeleteButton onClick={() => setDeleting(record)} testId="quick-message-delete" />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          {pages.isPending || isFetchingNextPage ? (
            <Box role="status" aria-label={t('common.loading')} sx={{ display: 'flex', justifyContent: 'center', p: 2 }}>
              <CircularProgress size={28} />
            </Box>
          ) : null}
          {!pages.isPending && records.length === 0 ? (
            <Typography color="text.secondary" sx={{ p: 3, textAlign: 'center' }} data-testid="quick-messages-empty">
              {t('quickMessages.empty')}
            </Typography>
          ) : null}
          {hasNextPage && !isFetchingNextPage ? (
            <Box sx={{ display: 'flex', justifyContent: 'center', p: 1 }}>
              <Button size="small" onClick={() => void fetchNextPage()}>
                {t('common.loadMore')}
              </Button>
            </Box>
          ) : null}
        </TableContainer>
      </Paper>

      {dialog.open ? <QuickMessageDialog record={dialog.record} onClose={() => setDialog({ open: false })} /> : null}
      <ConfirmationDialog
        open={deleting !== null}
        title={t('quickMessages.deleteTitle', { shortcode: deleting?.shortcode ?? '' })}
        onClose={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting) void remove(deleting);
        }}
      >
        {t('quickMessages.deleteMessage')}
      </ConfirmationDialog>
    </Stack>
  );
}
