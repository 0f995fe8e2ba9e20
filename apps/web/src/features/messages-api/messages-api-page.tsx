import { Box, Divider, Link, Paper, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { usePlanGate } from '../../components/use-plan-gate';
import { Code, CodeBlock, DocField, requestExamples } from './api-doc';
import { EXTERNAL_SEND_PATH, MEDIA_FIELD } from './external-send';
import { MediaTestFormCard, TextTestFormCard } from './send-test-forms';

function Section({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }} data-testid={testId}>
      <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/** Documentation on the left, the test form on the right (stacked on narrow screens). */
function TwoColumns({ doc, form }: { doc: ReactNode; form: ReactNode }) {
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', lg: 'minmax(0, 3fr) minmax(0, 2fr)' }, gap: 3 }}>
      <Stack spacing={1.5} sx={{ minWidth: 0 }}>
        {doc}
      </Stack>
      <Box>
        <Divider sx={{ display: { lg: 'none' }, mb: 2 }} />
        {form}
      </Box>
    </Box>
  );
}

/** The endpoint, method and headers of a send; the text and the media sends differ only in their content type. */
function EndpointAndHeaders({ endpoint, contentType, endpointTestId }: { endpoint: string; contentType: string; endpointTestId?: string }) {
  const { t } = useTranslation();
  return (
    <>
      <DocField label={t('messagesApi.doc.endpoint')}>
        <Code>
          <span data-testid={endpointTestId}>{endpoint}</span>
        </Code>
      </DocField>
      <DocField label={t('messagesApi.doc.method')}>
        <Code>POST</Code>
      </DocField>
      <DocField label={t('messagesApi.doc.headers')}>
        <div>
          <Code>Authorization</Code>: {t('messagesApi.doc.bearer')}
        </div>
        <div>
          <Code>Content-Type</Code>: <Code>{contentType}</Code>
        </div>
      </DocField>
    </>
  );
}

/**
 * External messages API page (spec part 2 §2.14, §7): documents sending text
 * (JSON) and media (multipart, files in `medias`) through
 * `POST /api/messages/send` with a connection's token as bearer, and offers a
 * test form for each. The plan must allow the external API; otherwise the
 * company is told so and sent to / after a second.
 */
export default function MessagesApiPage() {
  const { t } = useTranslation();
  const allowed = usePlanGate('useExternalApi');
  if (!allowed) return null;

  const endpoint = `${window.location.origin}${EXTERNAL_SEND_PATH}`;
  const examples = requestExamples(endpoint, {
    token: t('messagesApi.doc.sampleToken'),
    body: t('messagesApi.doc.sampleBody'),
    caption: t('messagesApi.doc.sampleCaption'),
    file: t('messagesApi.doc.sampleFile'),
  });

  return (
    <Stack spacing={2} data-testid="messages-api-page">
      <Typography variant="h5" component="h1">
        {t('messagesApi.title')}
      </Typography>

      <Section title={t('messagesApi.methods.title')} testId="messages-api-methods">
        <Box component="ol" sx={{ m: 0, pl: 0, listStyle: 'none' }}>
          <Typography component="li">{t('messagesApi.methods.text')}</Typography>
          <Typography component="li">{t('messagesApi.methods.media')}</Typography>
        </Box>
      </Section>

      <Section title={t('messagesApi.instructions.title')} testId="messages-api-instructions">
        <Typography variant="subtitle2" sx={{ mb: 1 }}>
          {t('messagesApi.instructions.subtitle')}
        </Typography>
        <Box component="ul" sx={{ m: 0, pl: 2.5, '& li': { mb: 1 } }}>
          <Typography component="li" variant="body2">
            {t('messagesApi.instructions.token')}{' '}
            <Link component={RouterLink} to="/connections">
              {t('messagesApi.instructions.openConnections')}
            </Link>
          </Typography>
          <Typography component="li" variant="body2">
            {t('messagesApi.instructions.number')}
            <Box component="ul" sx={{ mt: 0.5, pl: 2.5 }}>
              <li>{t('messagesApi.instructions.country')}</li>
              <li>{t('messagesApi.instructions.area')}</li>
              <li>{t('messagesApi.instructions.phone')}</li>
            </Box>
          </Typography>
        </Box>
      </Section>

      <Section title={t('messagesApi.text.title')} testId="messages-api-text">
        <TwoColumns
          doc={
            <>
              <Typography variant="body2">{t('messagesApi.text.description')}</Typography>
              <EndpointAndHeaders endpoint={endpoint} contentType="application/json" endpointTestId="messages-api-endpoint" />
              <DocField label={t('messagesApi.doc.body')}>
                <CodeBlock code={examples.json} testId="messages-api-json-example" />
              </DocField>
              <DocField label={t('messagesApi.doc.example')}>
                <CodeBlock code={examples.textCurl} />
              </DocField>
              <DocField label={t('messagesApi.doc.response')}>
                <CodeBlock code={examples.response} />
              </DocField>
            </>
          }
          form={<TextTestFormCard />}
        />
      </Section>

      <Section title={t('messagesApi.media.title')} testId="messages-api-media">
        <TwoColumns
          doc={
            <>
              <Typography variant="body2">{t('messagesApi.media.description')}</Typography>
              <EndpointAndHeaders endpoint={endpoint} contentType="multipart/form-data" />
              <DocField label={t('messagesApi.doc.formData')}>
                <div>
                  <Code>number</Code>: 5511999999999
                </div>
                <div>
                  <Code>{MEDIA_FIELD}</Code>: {t('messagesApi.media.files')}
                </div>
                <div>
                  <Code>body</Code>: {t('messagesApi.media.caption')}
                </div>
              </DocField>
              <DocField label={t('messagesApi.doc.example')}>
                <CodeBlock code={examples.mediaCurl} />
              </DocField>
            </>
          }
          form={<MediaTestFormCard />}
        />
      </Section>
    </Stack>
  );
}
