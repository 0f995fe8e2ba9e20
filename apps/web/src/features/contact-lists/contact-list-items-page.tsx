import type { ContactListUploadResult, PresentedContactListItem } from '@atende/shared';
import ArrowBack from '@mui/icons-material/ArrowBack';
import CheckCircle from '@mui/icons-material/CheckCircle';
import HelpOutlined from '@mui/icons-material/HelpOutlineOutlined';
import HighlightOff from '@mui/icons-material/HighlightOff';
import UploadFileOutlined from '@mui/icons-material/UploadFileOutlined';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, IconButton, LinearProgress, List, ListItem, ListItemText, TableCell, TableRow, Typography } from '@mui/material';
import { Tooltip } from '../../components/tooltip';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { useSession } from '../../api/session';
import { HiddenFileInput } from '../../components/hidden-file-input';
import { AddButton, InfiniteListFooter, InfiniteListPage, ListPageHeader, ListTable, loadMoreOnScroll, SearchField } from '../../components/list-page-parts';
import { RowActionsCell } from '../../components/row-actions';
import { toastError, toastSuccess } from '../../components/toast';
import { useDebouncedValue } from '../../components/use-debounced-value';
import { useDeleteConfirmation } from '../../components/use-delete-confirmation';
import { useEditDialog } from '../../components/use-edit-dialog';
import { usePlanGate } from '../../components/use-plan-gate';
import { ContactListItemDialog } from './contact-list-dialogs';
import { contactListKeys, useContactList, useContactListEvents, useContactListItemEvents, useContactListItemPages } from './contact-lists-queries';

/** The WhatsApp-valid icon: checked valid, checked not found, or not checked yet. */
function ValidIcon({ valid }: { valid: boolean | null }) {
  const { t } = useTranslation();
  if (valid === true)
    return (
      <Tooltip title={t('contactLists.items.valid')}>
        <CheckCircle fontSize="small" color="success" aria-label={t('contactLists.items.valid')} data-testid="item-valid" />
      </Tooltip>
    );
  if (valid === false)
    return (
      <Tooltip title={t('contactLists.items.invalid')}>
        <HighlightOff fontSize="small" color="error" aria-label={t('contactLists.items.invalid')} data-testid="item-invalid" />
      </Tooltip>
    );
  return (
    <Tooltip title={t('contactLists.items.unchecked')}>
      <HelpOutlined fontSize="small" color="disabled" aria-label={t('contactLists.items.unchecked')} data-testid="item-unchecked" />
    </Tooltip>
  );
}

/** What an upload did: how many rows became contacts and each refused row with its line and why. */
function ImportResultDialog({ result, onClose }: { result: ContactListUploadResult; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const problem = (error: ContactListUploadResult['errors'][number]) =>
    Object.values(error.fields)
      .map((key) => (i18n.exists(key) ? t(key) : i18n.exists(`errors.${key}`) ? t(`errors.${key}`) : key))
      .join('; ') || error.message;
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" data-testid="contact-list-import-result">
      <DialogTitle>{t('contactLists.items.import')}</DialogTitle>
      <DialogContent dividers>
        {/* What worked in green (or neutral when nothing did); what was refused in its own warning. */}
        <Alert severity={result.imported > 0 ? 'success' : 'info'} data-testid="contact-list-import-count">
          {t('contactLists.items.imported', { count: result.imported })}
        </Alert>
        {result.errors.length ? (
          <>
            <Alert severity="warning" sx={{ mt: 2 }} data-testid="contact-list-import-refused">
              {t('contactLists.items.importErrors', { count: result.errors.length })}
            </Alert>
            <List dense sx={{ maxHeight: 300, overflow: 'auto' }}>
              {result.errors.map((error) => (
                <ListItem key={error.row} disableGutters>
                  <ListItemText primary={t('contactLists.items.importRow', { row: error.row, name: error.name, number: error.number, problem: problem(error) })} />
                </ListItem>
              ))}
            </List>
          </>
        ) : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} autoFocus>
          {t('contactLists.items.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** A list's items (spec part 2 §2.8): search, back, import (.xls/.xlsx), add, WhatsApp-valid icon, edit, delete; live. */
export default function ContactListItemsPage() {
  const { t } = useTranslation();
  const { api } = useSession();
  const allowed = usePlanGate('useCampaigns');
  const listId = Number(useParams().contactListId);
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim().toLowerCase());
  const list = useContactList(listId, allowed);
  const pages = useContactListItemPages(listId, searchParam, allowed);
  const dialog = useEditDialog<PresentedContactListItem>();
  const fileInput = useRef<HTMLInputElement>(null);
  const [importing, setImporting] = useState(false);
  const [result, setResult] = useState<ContactListUploadResult | null>(null);
  const reload = () => {
    void queryClient.invalidateQueries({ queryKey: contactListKeys.items(listId) });
    void queryClient.invalidateQueries({ queryKey: contactListKeys.one(listId) });
  };
  const deletion = useDeleteConfirmation<PresentedContactListItem>({
    path: (item) => `/contact-list-items/${item.id}`,
    onDeleted: () => {
      reload();
      toastSuccess(t('contactLists.items.deleted'));
    },
    title: (item) => t('contactLists.items.deleteTitle', { name: item?.name ?? '' }),
    message: t('contactLists.items.deleteMessage'),
  });
  const progress = useContactListEvents()[listId];
  useContactListItemEvents(listId);

  const upload = async (file: File) => {
    setImporting(true);
    try {
      const body = new FormData();
      body.append('file', file);
      setResult(await api.post<ContactListUploadResult>(`/contact-lists/${listId}/upload`, body));
      reload();
    } catch (error) {
      toastError(error);
    } finally {
      setImporting(false);
    }
  };

  if (!allowed) return null;
  const items = pages.data?.pages.flatMap((page) => page.contacts) ?? [];

  return (
    <InfiniteListPage>
      <ListPageHeader title={t('contactLists.items.title', { name: list.data?.name ?? '' })} titleTestId="contact-list-items-title">
        <Tooltip title={t('contactLists.items.back')}>
          <IconButton component={RouterLink} to="/contact-lists" aria-label={t('contactLists.items.back')}>
            <ArrowBack />
          </IconButton>
        </Tooltip>
        <SearchField value={search} onChange={setSearch} placeholder={t('contactLists.items.search')} testId="contact-list-item-search" />
        <Tooltip title={t('contactLists.items.importHint')}>
          <span>
            <Button variant="outlined" startIcon={<UploadFileOutlined />} onClick={() => fileInput.current?.click()} disabled={importing} data-testid="contact-list-import">
              {t('contactLists.items.import')}
            </Button>
          </span>
        </Tooltip>
        <HiddenFileInput inputRef={fileInput} testId="contact-list-import-file" accept=".xls,.xlsx" onPick={(file) => void upload(file)} />
        <AddButton label={t('contactLists.items.add')} onClick={dialog.add} testId="contact-list-item-add" />
      </ListPageHeader>
      {importing ? (
        <>
          <LinearProgress data-testid="contact-list-importing" />
          <Typography variant="body2" sx={{ px: 2, py: 0.5 }}>
            {t('contactLists.items.importing')}
          </Typography>
        </>
      ) : null}
      {progress && progress.unchecked > 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ px: 2, py: 0.5 }} data-testid="contact-list-checking">
          {t('contactLists.items.checking', { done: progress.total - progress.unchecked, total: progress.total })}
        </Typography>
      ) : null}
      <ListTable
        onScroll={loadMoreOnScroll(pages)}
        label={t('contactLists.items.title', { name: list.data?.name ?? '' })}
        head={
          <>
            <TableCell align="center" sx={{ width: 48 }}>
              {t('contactLists.items.columns.valid')}
            </TableCell>
            <TableCell>{t('contactLists.items.columns.name')}</TableCell>
            <TableCell>{t('contactLists.items.columns.number')}</TableCell>
            <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{t('contactLists.items.columns.email')}</TableCell>
            <TableCell align="right">{t('contactLists.items.columns.actions')}</TableCell>
          </>
        }
        footer={<InfiniteListFooter pages={pages} empty={items.length === 0} emptyText={t('contactLists.items.empty')} emptyTestId="contact-list-items-empty" />}
      >
        {items.map((item) => (
          <TableRow key={item.id} hover data-testid="contact-list-item-row" data-item-name={item.name}>
            <TableCell align="center">
              <ValidIcon valid={item.isWhatsappValid} />
            </TableCell>
            <TableCell sx={{ minWidth: 90 }}>{item.name}</TableCell>
            <TableCell>{item.number}</TableCell>
            <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{item.email}</TableCell>
            <RowActionsCell testIdPrefix="contact-list-item" onEdit={() => dialog.edit(item)} onDelete={() => deletion.ask(item)} />
          </TableRow>
        ))}
      </ListTable>
      {dialog.open ? <ContactListItemDialog listId={listId} item={dialog.record} onClose={dialog.close} /> : null}
      {result ? <ImportResultDialog result={result} onClose={() => setResult(null)} /> : null}
      {deletion.dialog}
    </InfiniteListPage>
  );
}
