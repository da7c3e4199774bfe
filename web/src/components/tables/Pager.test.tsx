import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Pager } from './Pager';

describe('Pager', () => {
  it('jumps to the first and the last page and disables what leads nowhere', () => {
    const onPage = vi.fn();
    render(<Pager page={3} pageSize={50} total={520} onPage={onPage} />);
    expect(screen.getByText('Página 3 de 11')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Última' }));
    fireEvent.click(screen.getByRole('button', { name: 'Primeira' }));
    fireEvent.click(screen.getByRole('button', { name: 'Próxima' }));
    fireEvent.click(screen.getByRole('button', { name: 'Anterior' }));
    expect(onPage.mock.calls.map((c) => c[0])).toEqual([11, 1, 4, 2]);
  });

  it('has nowhere to go on a single page', () => {
    render(<Pager page={1} pageSize={50} total={7} onPage={vi.fn()} />);
    for (const name of ['Primeira', 'Anterior', 'Próxima', 'Última']) {
      expect((screen.getByRole('button', { name }) as HTMLButtonElement).disabled).toBe(true);
    }
  });
});
