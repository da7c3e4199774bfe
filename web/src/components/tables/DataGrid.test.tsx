import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CardList } from './CardList';
import { DataGrid } from './DataGrid';
import { mergeOrder, withOrdem } from './types';

const columns = [
  { key: 'CLI_ID', label: 'Código' },
  { key: 'CLI_DESCRICAO', label: 'Nome' },
];
const rows = [
  { CLI_ID: 1, CLI_DESCRICAO: 'Ana' },
  { CLI_ID: 2, CLI_DESCRICAO: 'Bruno' },
];
const rowKey = (r: Record<string, unknown>) => String(r.CLI_ID);

describe('DataGrid', () => {
  it("shows 'Nenhum item encontrado.' when empty", () => {
    render(<DataGrid columns={columns} rows={[]} rowKey={rowKey} />);
    expect(screen.getByText('Nenhum item encontrado.')).toBeInTheDocument();
  });
  it('stripes rows by ORDEM and sorts by header', async () => {
    const onSort = vi.fn();
    render(
      <DataGrid
        columns={columns}
        rows={rows}
        rowKey={rowKey}
        sort={{ key: 'CLI_DESCRICAO', dir: 'ASC' }}
        onSort={onSort}
      />,
    );
    const body = screen.getAllByRole('row').slice(1);
    expect(body[0]).toHaveClass('bg-white');
    expect(body[1]).toHaveClass('bg-slate-50');
    expect(screen.getByRole('columnheader', { name: /Nome/ })).toHaveAttribute('aria-sort', 'ascending');
    await userEvent.click(within(screen.getByRole('columnheader', { name: /Código/ })).getByRole('button'));
    expect(onSort).toHaveBeenCalledWith('CLI_ID');
  });
  it('uses a saved column order', () => {
    localStorage.setItem('colunas:clientes', JSON.stringify(['CLI_DESCRICAO', 'CLI_ID']));
    render(<DataGrid columns={columns} rows={rows} rowKey={rowKey} storageKey="clientes" />);
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['Nome', 'Código']);
  });
  it('decorates rows with alternating ORDEM and merges saved orders', () => {
    expect(withOrdem([{}, {}, {}]).map((r) => r.ORDEM)).toEqual([0, 1, 0]);
    expect(mergeOrder(['B', 'GONE', 'A'], ['A', 'B', 'C'])).toEqual(['B', 'A', 'C']);
  });
});

describe('CardList', () => {
  it('shows a card per row with the title column first', () => {
    render(<CardList columns={columns} rows={rows} rowKey={rowKey} titleKey="CLI_DESCRICAO" />);
    const cards = screen.getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    expect(within(cards[0]).getByText('Ana')).toBeInTheDocument();
  });
});
