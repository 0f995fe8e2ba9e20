import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Table, TableBody, TableCell, TableRow } from '@mui/material';
import { useTranslation } from 'react-i18next';

const SHORTCUTS = [
  { keys: ['j', 'Alt+↓'], text: 'next' },
  { keys: ['k', 'Alt+↑'], text: 'previous' },
  { keys: ['a'], text: 'accept' },
  { keys: ['c'], text: 'close' },
  { keys: ['r', '/'], text: 'composer' },
  { keys: ['q'], text: 'quickReply' },
  { keys: ['?'], text: 'help' },
] as const;

/** The list of the ticket screen's keyboard shortcuts, opened with `?`. */
export function TicketShortcutsDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="ticket-shortcuts-title" data-testid="shortcuts-dialog">
      <DialogTitle id="ticket-shortcuts-title">{t('tickets.shortcuts.title')}</DialogTitle>
      <DialogContent>
        <Box sx={{ color: 'text.secondary', typography: 'body2', mb: 1 }}>{t('tickets.shortcuts.hint')}</Box>
        <Table size="small">
          <TableBody>
            {SHORTCUTS.map((shortcut) => (
              <TableRow key={shortcut.text}>
                <TableCell component="th" scope="row" sx={{ whiteSpace: 'nowrap', width: '1%', pl: 0 }}>
                  {shortcut.keys.map((key, index) => (
                    <Box component="span" key={key}>
                      {index > 0 ? ` ${t('tickets.shortcuts.or')} ` : null}
                      <Box component="kbd" sx={{ fontFamily: 'monospace', px: 0.75, py: 0.25, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'action.hover' }}>
                        {key}
                      </Box>
                    </Box>
                  ))}
                </TableCell>
                <TableCell sx={{ pr: 0 }}>{t(`tickets.shortcuts.${shortcut.text}`)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} data-testid="shortcuts-close">
          {t('common.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
