import { can, type PresentedContact } from '@atende/shared';
import Download from '@mui/icons-material/Download';
import FileUpload from '@mui/icons-material/FileUpload';
import WhatsApp from '@mui/icons-material/WhatsApp';
import { Avatar, Box, Button, CircularProgress, IconButton, Menu, MenuItem, Stack, TableCell, TableRow, Typography } from '@mui/material';
import { Tooltip } from '../../components/tooltip';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session';
import { AddButton, InfiniteListFooter, InfiniteListPage, ListTable, loadMoreOnScroll, SearchField } from '../../components/list-page-parts';
import { RowActionsCell } from '../../components/row-actions';
import { toastError, toastSuccess } from '../../components/toast';
import { useDebouncedValue } from '../../components/use-debounced-value';
import { useDeleteConfirmation } from '../../components/use-delete-confirmation';
import { useEditDialog } from '../../components/use-edit-dialog';
import { ContactImportDialog, type ImportSource } from './contact-import-dialog';
import { ContactModal } from './contact-modal';
import { contactsCsv, CONTACTS_CSV_NAME, type ExportedContact } from './contacts-export';
import { cacheRemovedContact, useContactEvents, useContactPages } from './contacts-queries';
import { downloadTextFile } from './csv-writer';
import { useStartTicket } from './start-ticket';

/** Contacts page (spec part 1 §2): search, import, add, export, and the list with its actions. */
export default function ContactsPage() {
  const { t } = useTranslation();
  const { api, user } = useSession();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim().toLowerCase());
  const pages = useContactPages(searchParam);
  const modal = useEditDialog<number>();
  const deletion = useDeleteConfirmation<PresentedContact>({
    path: (contact) => `/contacts/${contact.id}`,
    onDeleted: (contact) => {
      cacheRemovedContact(queryClient, contact.id);
      toastSuccess(t('contacts.deleted'));
    },
    title: (contact) => t('contacts.deleteTitle', { name: contact?.name ?? '' }),
    message: t('contacts.deleteMessage'),
  });
  const [importMenu, setImportMenu] = useState<HTMLElement | null>(null);
  const [importSource, setImportSource] = useState<ImportSource | null>(null);
  const [exporting, setExporting] = useState(false);
  const startTicket = useStartTicket();
  useContactEvents();

  const contacts = pages.data?.pages.flatMap((page) => page.contacts) ?? [];
  const count = pages.data?.pages[0]?.count ?? 0;
  const mayDelete = user ? can(user, 'contacts-page:deleteContact') : false;
  const onScroll = loadMoreOnScroll(pages);

  const exportCsv = async () => {
    setExporting(true);
    try {
      const all = await api.get<ExportedContact[]>('/contacts/export');
      downloadTextFile(CONTACTS_CSV_NAME, contactsCsv(all), 'text/csv;charset=utf-8');
      toastSuccess(t('contacts.exported'));
    } catch (error) {
      toastError(error);
    } finally {
      setExporting(false);
    }
  };

  return (
    <InfiniteListPage>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={1} sx={{ alignItems: { md: 'center' } }}>
        <Box sx={{ flexGrow: 1 }}>
          <Typography variant="h5" component="h1">
            {t('contacts.title')}
          </Typography>
          <Typography variant="body2" color="text.secondary" data-testid="contacts-count">
            {t('contacts.total', { count })}
          </Typography>
        </Box>
        <SearchField value={search} onChange={setSearch} placeholder={t('contacts.search')} testId="contacts-search" minWidth={260} />
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
          <Button variant="outlined" startIcon={<FileUpload />} onClick={(event) => setImportMenu(event.currentTarget)} data-testid="contacts-import">
            {t('contacts.import')}
          </Button>
          <Button variant="outlined" startIcon={exporting ? <CircularProgress size={16} /> : <Download />} disabled={exporting} onClick={() => void exportCsv()} data-testid="contacts-export">
            {t('contacts.export')}
          </Button>
          <AddButton label={t('contacts.add')} onClick={modal.add} testId="contacts-add" />
        </Stack>
      </Stack>
      <Menu anchorEl={importMenu} open={importMenu !== null} onClose={() => setImportMenu(null)}>
        <MenuItem
          data-testid="contacts-import-sheet"
          onClick={() => {
            setImportMenu(null);
            setImportSource('sheet');
          }}
        >
          {t('contacts.importMenu.spreadsheet')}
        </MenuItem>
        <MenuItem
          data-testid="contacts-import-phone"
          onClick={() => {
            setImportMenu(null);
            setImportSource('phone');
          }}
        >
          {t('contacts.importMenu.phone')}
        </MenuItem>
      </Menu>

      <ListTable
        onScroll={onScroll}
        label={t('contacts.title')}
        phoneOffsetPx={260}
        scrollTestId="contacts-scroll"
        head={
          <>
            <TableCell padding="checkbox" sx={{ pl: 2, display: { xs: 'none', sm: 'table-cell' } }}>
              <Box component="span" sx={visuallyHidden}>
                {t('contacts.columns.avatar')}
              </Box>
            </TableCell>
            <TableCell>{t('contacts.columns.name')}</TableCell>
            <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{t('contacts.columns.number')}</TableCell>
            <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{t('contacts.columns.email')}</TableCell>
            <TableCell align="right">{t('contacts.columns.actions')}</TableCell>
          </>
        }
        footer={<InfiniteListFooter pages={pages} empty={contacts.length === 0} emptyText={t('contacts.empty')} emptyTestId="contacts-empty" />}
      >
        {contacts.map((contact) => (
          <TableRow key={contact.id} hover data-testid="contact-row" data-contact-id={contact.id}>
            <TableCell padding="checkbox" sx={{ pl: 2, display: { xs: 'none', sm: 'table-cell' } }}>
              <Avatar src={contact.profilePicUrl || undefined} alt="" sx={{ width: 32, height: 32 }}>
                {contact.name.slice(0, 1).toUpperCase()}
              </Avatar>
            </TableCell>
            <TableCell sx={{ wordBreak: 'break-word' }}>
              {contact.name}
              {/* Narrow screens: the number goes under the name instead of in its own column. */}
              <Typography variant="caption" color="text.secondary" sx={{ display: { xs: 'block', sm: 'none' } }}>
                {contact.number}
              </Typography>
            </TableCell>
            <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{contact.number}</TableCell>
            <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' }, wordBreak: 'break-all' }}>{contact.email}</TableCell>
            <RowActionsCell
              testIdPrefix="contact"
              onEdit={() => modal.edit(contact.id)}
              onDelete={mayDelete ? () => deletion.ask(contact) : undefined}
            >
              <Tooltip title={t('contacts.startTicket')}>
                <span>
                  <IconButton
                    size="small"
                    aria-label={t('contacts.startTicket')}
                    disabled={startTicket.busyContactId !== null}
                    onClick={() => void startTicket.start(contact)}
                    data-testid="contact-start-ticket"
                  >
                    {startTicket.busyContactId === contact.id ? <CircularProgress size={18} /> : <WhatsApp fontSize="small" />}
                  </IconButton>
                </span>
              </Tooltip>
            </RowActionsCell>
          </TableRow>
        ))}
      </ListTable>

      <ContactModal open={modal.open} contactId={modal.record} onClose={modal.close} />
      {deletion.dialog}
      {importSource ? <ContactImportDialog source={importSource} onClose={() => setImportSource(null)} /> : null}
      {startTicket.dialog}
    </InfiniteListPage>
  );
}

const visuallyHidden = {
  border: 0,
  clip: 'rect(0 0 0 0)',
  height: 1,
  margin: -1,
  overflow: 'hidden',
  padding: 0,
  position: 'absolute',
  whiteSpace: 'nowrap',
  width: 1,
} as const;
