import ContentCopy from '@mui/icons-material/ContentCopy';
import { Box, IconButton, Stack, Typography } from '@mui/material';
import { Tooltip } from '../../components/tooltip';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { toastError, toastSuccess } from '../../components/toast';

/** A block of code (a request example), with a copy button. */
export function CodeBlock({ code, testId }: { code: string; testId?: string }) {
  const { t } = useTranslation();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      toastSuccess(t('messagesApi.doc.copied'));
    } catch (error) {
      toastError(error);
    }
  };
  return (
    <Box sx={{ position: 'relative', bgcolor: 'action.hover', borderRadius: 1, border: 1, borderColor: 'divider' }}>
      <Box
        component="pre"
        // A long line scrolls sideways: the keyboard reaches the block and scrolls it with the arrows.
        tabIndex={0}
        data-testid={testId}
        sx={{ m: 0, p: 1.5, pr: 5, overflowX: 'auto', fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 13, whiteSpace: 'pre' }}
      >
        {code}
      </Box>
      <Tooltip title={t('messagesApi.doc.copy')}>
        <IconButton size="small" onClick={() => void copy()} aria-label={t('messagesApi.doc.copy')} sx={{ position: 'absolute', top: 4, right: 4 }}>
          <ContentCopy fontSize="small" />
        </IconButton>
      </Tooltip>
    </Box>
  );
}

/** One line of the request description: a label and its value (plain text or inline code). */
export function DocField({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 0, sm: 1 }} sx={{ alignItems: { sm: 'baseline' } }}>
      <Typography variant="body2" sx={{ fontWeight: 600, minWidth: 110, flexShrink: 0 }}>
        {label}
      </Typography>
      <Box sx={{ typography: 'body2', wordBreak: 'break-word', minWidth: 0, flex: 1 }}>{children}</Box>
    </Stack>
  );
}

/** Inline code. */
export function Code({ children }: { children: ReactNode }) {
  return (
    <Box component="code" sx={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: 13, bgcolor: 'action.hover', px: 0.5, borderRadius: 0.5 }}>
      {children}
    </Box>
  );
}

export interface ExampleTexts {
  token: string;
  body: string;
  caption: string;
  file: string;
}

/** The request examples the page shows, for an endpoint on this server. */
export function requestExamples(endpoint: string, texts: ExampleTexts) {
  const sample = { number: '5511999999999', body: texts.body };
  return {
    json: JSON.stringify(sample, null, 2),
    textCurl: [
      `curl -X POST '${endpoint}' \\`,
      `  -H 'Authorization: Bearer ${texts.token}' \\`,
      `  -H 'Content-Type: application/json' \\`,
      `  -d '${JSON.stringify(sample)}'`,
    ].join('\n'),
    mediaCurl: [
      `curl -X POST '${endpoint}' \\`,
      `  -H 'Authorization: Bearer ${texts.token}' \\`,
      `  -F 'number=${sample.number}' \\`,
      `  -F 'body=${texts.caption}' \\`,
      `  -F 'medias=@${texts.file}'`,
    ].join('\n'),
    response: JSON.stringify({ message: 'Message sent.', ticketId: 1, messageIds: [1] }, null, 2),
  };
}
