import { describe, expect, it, jest } from '@jest/globals';
import { render } from '@testing-library/react';
import { mockScrollBox } from '../../test/scroll-box';
import { useScrollPaging } from '../../app/list-page';

/** A list box driven by useScrollPaging, as every paged list page has (contacts, users, tags, prompts, …). */
function List({ query, count }: { query: { hasNextPage: boolean; isFetching: boolean; fetchNextPage(): unknown }; count: number }) {
  const paging = useScrollPaging(query, count);
  return <div ref={paging.ref} onScroll={paging.onScroll} data-testid="a-list" />;
}

describe('useScrollPaging (spec 01 §9, spec 02 §9)', () => {
  it('loads the next page once scrolled within 100 px of the bottom, not before', () => {
    const box = mockScrollBox('a-list', { scrollHeight: 1000, clientHeight: 400 });
    try {
      const fetchNextPage = jest.fn();
      const r = render(<List query={{ hasNextPage: true, isFetching: false, fetchNextPage }} count={20} />);
      const el = r.getByTestId('a-list');
      box.scrollTo(el, 450); // 150 px from the end
      expect(fetchNextPage).not.toHaveBeenCalled();
      box.scrollTo(el, 510); // 90 px from the end
      expect(fetchNextPage).toHaveBeenCalledTimes(1);
    } finally {
      box.restore();
    }
  });

  it('asks nothing while a page is on its way or when there is none left', () => {
    const box = mockScrollBox('a-list', { scrollHeight: 1000, clientHeight: 400 });
    try {
      const fetchNextPage = jest.fn();
      const r = render(<List query={{ hasNextPage: true, isFetching: true, fetchNextPage }} count={20} />);
      box.scrollTo(r.getByTestId('a-list'), 600);
      r.rerender(<List query={{ hasNextPage: false, isFetching: false, fetchNextPage }} count={40} />);
      box.scrollTo(r.getByTestId('a-list'), 600);
      expect(fetchNextPage).not.toHaveBeenCalled();
    } finally {
      box.restore();
    }
  });

  it('a first page that does not fill the box loads the next one without a scroll', () => {
    const box = mockScrollBox('a-list', { scrollHeight: 300, clientHeight: 400 });
    try {
      const fetchNextPage = jest.fn();
      render(<List query={{ hasNextPage: true, isFetching: false, fetchNextPage }} count={5} />);
      expect(fetchNextPage).toHaveBeenCalledTimes(1);
    } finally {
      box.restore();
    }
  });
});
