import { useCallback, useEffect, type RefObject, type UIEvent } from 'react';

/** Spec part 1 §4 and part 2 §9: the next page loads within 100 px of the bottom. */
const SCROLL_THRESHOLD_PX = 100;

export interface Pages {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage(): Promise<unknown>;
}

/**
 * The scroll handler of a virtualized infinite list (its own scroll element): asks
 * for the next page near the bottom, and keeps asking while a short first page
 * leaves nothing to scroll, until the list fills its box or ends.
 */
export function useLoadMoreNearEnd(scrollRef: RefObject<HTMLElement | null>, pages: Pages, itemCount: number, thresholdPx = SCROLL_THRESHOLD_PX) {
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = pages;
  const loadMoreIfNearEnd = useCallback(() => {
    const element = scrollRef.current;
    if (!element || !hasNextPage || isFetchingNextPage) return;
    if (element.scrollHeight - element.scrollTop - element.clientHeight <= thresholdPx) void fetchNextPage();
  }, [scrollRef, hasNextPage, isFetchingNextPage, fetchNextPage, thresholdPx]);
  useEffect(() => {
    loadMoreIfNearEnd();
  }, [loadMoreIfNearEnd, itemCount]);
  return loadMoreIfNearEnd;
}

/** The scroll handler of an infinite list: asks for the next page near the bottom, once at a time. */
export function loadMoreOnScroll(pages: Pages) {
  return (event: UIEvent<HTMLElement>) => {
    const element = event.currentTarget;
    if (element.scrollHeight - element.scrollTop - element.clientHeight > SCROLL_THRESHOLD_PX) return;
    if (pages.hasNextPage && !pages.isFetchingNextPage) void pages.fetchNextPage();
  };
}
