import { Alert, Button, Stack } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useSession } from '../../api/session';
import { PageLoading } from '../../components/page-loading';
import { ListPageHeader } from '../../components/list-page-parts';
import { useTagEvents } from '../tags/tags-queries';
import { KanbanBoard } from './kanban-board';
import { useBoardEvents, useLanes, useShowAll } from './kanban-queries';

/**
 * Kanban board (spec part 2 §2.4): a lane for tickets without a kanban tag and
 * one per kanban tag; cards move by drag and drop or by their "move to" menu,
 * and every open board follows the moves live.
 */
export default function KanbanPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const planAllows = Boolean(user?.company?.plan.useKanban);
  if (!planAllows) return <Alert severity="warning">{t('kanban.planDenied')}</Alert>;
  return <Board />;
}

function Board() {
  const { t } = useTranslation();
  const showAll = useShowAll();
  const lanes = useLanes();
  useBoardEvents();
  // A tag turned into a lane (or out of one) on the tags page reshapes the board.
  useTagEvents();

  return (
    <Stack spacing={2} sx={{ height: { xs: 'calc(100vh - 88px)', md: 'calc(100vh - 96px)' }, minHeight: 360 }}>
      <ListPageHeader title={t('kanban.title')}>
        <Button component={RouterLink} to="/tags" variant="outlined" data-testid="kanban-manage-tags">
          {t('kanban.manageTags')}
        </Button>
      </ListPageHeader>
      {lanes.isPending ? (
        <PageLoading />
      ) : (
        <>
          {lanes.isError ? <Alert severity="error">{t('common.loadError')}</Alert> : null}
          {!lanes.isError && lanes.lanes.length === 1 ? (
            <Alert severity="info" data-testid="kanban-no-lanes">
              {t('kanban.noLanes')}
            </Alert>
          ) : null}
          <KanbanBoard lanes={lanes.lanes} showAll={showAll} />
        </>
      )}
    </Stack>
  );
}
