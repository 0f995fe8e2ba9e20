import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, LinearProgress, Link, List, ListItem, ListItemText, Stack, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session';
import { toastError } from '../../components/toast';
import { contactKeys } from './contacts-queries';
import { inBatches, isXlsxFile, sheetToRows } from './contacts-spreadsheet';

export type ImportSource = 'sheet' | 'phone';

/** What `POST /contacts/upload` and `POST /contacts/import` answer (spec part 2 §3). */
interface ImportResult {
  newContacts: { contactId: number; contactName: string }[];
  errorBag: { contactName: string; error: { message: string; fields?: Record<string, string> } }[];
}

/** The template served from the site root (apps/web/public, made by scripts/make-contacts-template.mjs). */
export const CONTACTS_TEMPLATE_URL = '/contatos-modelo.xlsx';
const UPLOAD_BATCH = 500;
const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

function merge(total: ImportResult, part: Partial<ImportResult> | undefined): ImportResult {
  return {
    newContacts: [...total.newContacts, ...(part?.newContacts ?? [])],
    errorBag: [...total.errorBag, ...(part?.errorBag ?? [])],
  };
}

type Step = { kind: 'confirm' } | { kind: 'working'; done: number; total: number } | { kind: 'result'; result: ImportResult };

/**
 * Contact import (spec part 1 §2, §5): asks first, takes .xlsx only, sends the
 * first sheet's rows keyed by their column titles, then shows what was imported
 * and what was refused. The same dialog imports from the phone.
 */
export function ContactImportDialog({ source, onClose }: { source: ImportSource; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const { api } = useSession();
  const queryClient = useQueryClient();
  const fileInput = useRef<HTMLInputElement>(null);
  const [step, setStep] = useState<Step>({ kind: 'confirm' });
  const working = step.kind === 'working';

  const finish = (result: ImportResult) => {
    setStep({ kind: 'result', result });
    void queryClient.invalidateQueries({ queryKey: contactKeys.lists });
  };

  const importSheet = async (file: File) => {
    setStep({ kind: 'working', done: 0, total: 0 });
    let rows;
    try {
      // Loaded on demand: the reader is only needed here.
      const { readSheet } = await import('read-excel-file/browser');
      rows = sheetToRows(await readSheet(file));
    } catch {
      toastError(new Error(t('contacts.importDialog.unreadable')));
      setStep({ kind: 'confirm' });
      return;
    }
    if (rows.length === 0) {
      toastError(new Error(t('contacts.importDialog.emptySheet')));
      setStep({ kind: 'confirm' });
      return;
    }
    let result: ImportResult = { newContacts: [], errorBag: [] };
    let done = 0;
    setStep({ kind: 'working', done, total: rows.length });
    try {
      for (const batch of inBatches(rows, UPLOAD_BATCH)) {
        result = merge(result, await api.post<ImportResult>('/contacts/upload', batch));
        done += batch.length;
        setStep({ kind: 'working', done, total: rows.length });
      }
    } catch (error) {
      // What went in before the failure stays imported; the result shows it.
      toastError(error);
    }
    finish(result);
  };

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // Choosing the same file again must fire change again.
    event.target.value = '';
    if (!file) return;
    if (!isXlsxFile(file)) {
      toastError(new Error(t('contacts.importDialog.onlyXlsx')));
      return;
    }
    void importSheet(file);
  };

  const importFromPhone = async () => {
    setStep({ kind: 'working', done: 0, total: 0 });
    try {
      finish(merge({ newContacts: [], errorBag: [] }, await api.post<Partial<ImportResult> | undefined>('/contacts/import')));
    } catch (error) {
      toastError(error);
      setStep({ kind: 'confirm' });
    }
  };

  const reason = ({ message, fields }: { message: string; fields?: Record<string, string> }) => {
    // A row with invalid columns names each column and its problem in the user's language.
    if (fields && Object.keys(fields).length > 0) {
      return Object.entries(fields)
        .map(([field, key]) => `${i18n.exists(`contacts.columns.${field}`) ? t(`contacts.columns.${field}`) : field}: ${i18n.exists(key) ? t(key) : key}`)
        .join('; ');
    }
    if (i18n.exists(message)) return t(message);
    if (i18n.exists(`errors.${message}`)) return t(`errors.${message}`);
    return message;
  };

  const title =
    step.kind === 'result' ? t('contacts.importDialog.resultTitle') : source === 'sheet' ? t('contacts.importDialog.sheetTitle') : t('contacts.importDialog.phoneTitle');

  return (
    <Dialog open onClose={working ? undefined : onClose} fullWidth maxWidth="sm" data-testid="contacts-import-dialog">
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        {step.kind === 'confirm' && source === 'sheet' ? (
          <Stack spacing={2}>
            <DialogContentText>{t('contacts.importDialog.sheetText')}</DialogContentText>
            <Link href={CONTACTS_TEMPLATE_URL} download="contatos-modelo.xlsx" data-testid="contacts-import-template">
              {t('contacts.importDialog.template')}
            </Link>
            <input ref={fileInput} type="file" accept={`.xlsx,${XLSX_MIME}`} hidden onChange={onFile} data-testid="contacts-import-file" />
          </Stack>
        ) : null}
        {step.kind === 'confirm' && source === 'phone' ? <DialogContentText>{t('contacts.importDialog.phoneText')}</DialogContentText> : null}
        {step.kind === 'working' ? (
          <Box role="status" data-testid="contacts-import-progress" sx={{ py: 2 }}>
            <Typography gutterBottom>{t('contacts.importDialog.working')}</Typography>
            {step.total > 0 ? (
              <>
                <LinearProgress variant="determinate" value={(step.done / step.total) * 100} />
                <Typography variant="caption" color="text.secondary">
                  {t('contacts.importDialog.progress', { done: step.done, total: step.total })}
                </Typography>
              </>
            ) : (
              <LinearProgress />
            )}
          </Box>
        ) : null}
        {step.kind === 'result' ? (
          <Stack spacing={1} data-testid="contacts-import-result">
            <Alert severity={step.result.newContacts.length > 0 ? 'success' : 'info'} data-testid="contacts-import-count">
              {t('contacts.importDialog.imported', { count: step.result.newContacts.length })}
            </Alert>
            {step.result.errorBag.length > 0 ? (
              <>
                <Typography variant="subtitle2">{t('contacts.importDialog.failed', { count: step.result.errorBag.length })}</Typography>
                <List dense sx={{ maxHeight: 280, overflowY: 'auto', bgcolor: 'action.hover', borderRadius: 1 }}>
                  {step.result.errorBag.map((entry, index) => (
                    <ListItem key={index} data-testid="contacts-import-error">
                      <ListItemText primary={entry.contactName || t('contacts.importDialog.unnamed')} secondary={reason(entry.error ?? { message: '' })} />
                    </ListItem>
                  ))}
                </List>
              </>
            ) : null}
          </Stack>
        ) : null}
      </DialogContent>
      <DialogActions>
        {step.kind === 'result' ? (
          <Button variant="contained" onClick={onClose} data-testid="contacts-import-close">
            {t('common.close')}
          </Button>
        ) : (
          <>
            <Button onClick={onClose} disabled={working}>
              {t('common.cancel')}
            </Button>
            <Button
              variant="contained"
              disabled={working}
              data-testid="contacts-import-confirm"
              onClick={() => (source === 'sheet' ? fileInput.current?.click() : void importFromPhone())}
            >
              {source === 'sheet' ? t('contacts.importDialog.chooseFile') : t('contacts.importDialog.confirmPhone')}
            </Button>
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}
