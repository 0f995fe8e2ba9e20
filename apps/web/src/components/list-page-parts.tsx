import AddCircleOutlined from '@mui/icons-material/AddCircleOutlined';
import Search from '@mui/icons-material/Search';
import {
  Box,
  Button,
  InputAdornment,
  Paper,
  Stack,
  Table,
  TableBody,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
  type SxProps,
  type Theme,
} from '@mui/material';
import type { ReactNode, UIEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { Pages } from './load-more';
import { TableStatus } from './table-status';

// The infinite lists' scroll handlers live with their own module: the tickets list needs them without these parts.
export { loadMoreOnScroll } from './load-more';

interface ListPageHeaderProps {
  title: ReactNode;
  titleTestId?: string;
  /** The page's controls after the title: search field, add buttons. */
  children?: ReactNode;
}

/** A list page's header row: its title (the page's h1), then its controls; stacked on phones. */
export function ListPageHeader({ title, titleTestId, children }: ListPageHeaderProps) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
      <Typography variant="h5" component="h1" sx={{ flexGrow: 1 }} data-testid={titleTestId}>
        {title}
      </Typography>
      {children}
    </Stack>
  );
}

interface AddButtonProps {
  label: string;
  onClick(): void;
  testId: string;
  disabled?: boolean;
  sx?: SxProps<Theme>;
}

/** A list's main "add" button (filled, with the plus icon). */
export function AddButton({ label, onClick, testId, disabled, sx }: AddButtonProps) {
  return (
    <Button variant="contained" startIcon={<AddCircleOutlined />} disabled={disabled} onClick={onClick} sx={sx} data-testid={testId}>
      {label}
    </Button>
  );
}

interface PagesState extends Pages {
  isPending: boolean;
  isError: boolean;
}

interface SearchFieldProps {
  value: string;
  onChange(value: string): void;
  placeholder: string;
  testId: string;
  minWidth?: number;
}

/** A list page's search box (magnifier, accessible name "Pesquisar"). */
export function SearchField({ value, onChange, placeholder, testId, minWidth }: SearchFieldProps) {
  const { t } = useTranslation();
  return (
    <TextField
      size="small"
      placeholder={placeholder}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      slotProps={{
        htmlInput: { 'data-testid': testId, 'aria-label': t('common.search') },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <Search fontSize="small" />
            </InputAdornment>
          ),
        },
      }}
      sx={minWidth ? { minWidth: { md: minWidth } } : undefined}
    />
  );
}

interface InfiniteListFooterProps {
  pages: PagesState;
  empty: boolean;
  emptyText: string;
  emptyTestId?: string;
}

/**
 * Under an infinite list: the loading, error or empty state, and a "load more"
 * button for screens tall enough that the list never scrolls, and for keyboard users.
 */
export function InfiniteListFooter({ pages, empty, emptyText, emptyTestId }: InfiniteListFooterProps) {
  const { t } = useTranslation();
  return (
    <>
      <TableStatus loading={pages.isPending || pages.isFetchingNextPage} failed={pages.isError} empty={empty} emptyText={emptyText} emptyTestId={emptyTestId} />
      {pages.hasNextPage && !pages.isFetchingNextPage ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 1 }}>
          <Button size="small" onClick={() => void pages.fetchNextPage()}>
            {t('common.loadMore')}
          </Button>
        </Box>
      ) : null}
    </>
  );
}

/** An infinite list's page: on desktop it takes the window's height, and its ListTable scrolls inside. */
export function InfiniteListPage({ children }: { children: ReactNode }) {
  return (
    <Stack spacing={2} sx={{ height: { md: 'calc(100vh - 96px)' } }}>
      {children}
    </Stack>
  );
}

interface ListTableProps {
  /** The header row's cells. */
  head: ReactNode;
  /** The body rows. */
  children: ReactNode;
  /** Under the rows: the TableStatus, or an InfiniteListFooter. */
  footer?: ReactNode;
  /** An infinite list (loadMoreOnScroll): the table fills its InfiniteListPage and scrolls under a sticky header. */
  onScroll?(event: UIEvent<HTMLElement>): void;
  /** Phones, where the page itself scrolls: the scrolling table is the window's height less this (the bars and the page's header). */
  phoneOffsetPx?: number;
  scrollTestId?: string;
  /** The scrolling table's name for screen readers: it is focusable (so that a keyboard can scroll it) and a named region. */
  label?: string;
}

/** A list page's table in its outlined paper: small rows, the header row, the body and what goes under it. */
export function ListTable({ head, children, footer, onScroll, phoneOffsetPx = 220, scrollTestId, label }: ListTableProps) {
  const scrolls = onScroll !== undefined;
  return (
    <Paper variant="outlined" sx={scrolls ? { flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' } : undefined}>
      <TableContainer
        onScroll={onScroll}
        sx={scrolls ? { flex: 1, maxHeight: { xs: `calc(100vh - ${phoneOffsetPx}px)`, md: 'none' }, overflowY: 'auto' } : undefined}
        data-testid={scrollTestId}
        {...(scrolls ? { tabIndex: 0, role: 'region', 'aria-label': label } : {})}
      >
        <Table stickyHeader={scrolls} size="small">
          <TableHead>
            <TableRow>{head}</TableRow>
          </TableHead>
          <TableBody>{children}</TableBody>
        </Table>
        {footer}
      </TableContainer>
    </Paper>
  );
}
