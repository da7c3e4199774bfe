import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { notify } from '../../lib/toast';
import { ItemPicker, type PickerPage } from './ItemPicker';
import type { PickerItem } from './pickerState';

const catalogue: PickerItem[] = Array.from({ length: 45 }, (_, i) => ({
  id: i + 1,
  text: i === 0 ? 'Parafuso' : `Item ${i + 1}`,
  monetary: 2.5,
  stock: 2,
  unit: 'UN',
}));

function source() {
  return vi.fn(async (page: number, filter: string): Promise<PickerPage> => {
    const found = catalogue.filter((c) => c.text.toLowerCase().includes(filter.toLowerCase()));
    return { items: found.slice(page * 20, page * 20 + 20), total: found.length };
  });
}

afterEach(() => vi.restoreAllMocks());

describe('ItemPicker', () => {
  it('shows the title, count, prices and total', async () => {
    const user = userEvent.setup();
    render(<ItemPicker itemName="Produto" load={source()} onSave={vi.fn()} onClose={vi.fn()} />);
    expect(screen.getByRole('heading', { name: 'Adicionar Produto' })).toBeInTheDocument();
    expect(await screen.findByText('1 - Parafuso')).toBeInTheDocument();
    expect(screen.getByText('45 itens')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Aumentar Parafuso' }));
    await user.click(screen.getByRole('button', { name: 'Aumentar Parafuso' }));
    expect(screen.getByLabelText('Quantidade de Parafuso')).toHaveValue('2');
    expect(screen.getByText('Valor total: R$ 5,00')).toBeInTheDocument();
  });

  it('blocks quantities above stock', async () => {
    const warn = vi.spyOn(notify, 'warning');
    const user = userEvent.setup();
    render(<ItemPicker itemName="Produto" load={source()} onSave={vi.fn()} onClose={vi.fn()} blockStock />);
    await screen.findByText('1 - Parafuso');
    fireEvent.change(screen.getByLabelText('Quantidade de Parafuso'), { target: { value: '3' } });
    expect(warn).toHaveBeenCalledWith('Item não possui mais estoque!');
    expect(screen.getByLabelText('Quantidade de Parafuso')).toHaveValue('');
    await user.click(screen.getByRole('button', { name: 'Aumentar Parafuso' }));
    expect(screen.getByLabelText('Quantidade de Parafuso')).toHaveValue('1');
  });

  it('refuses to save nothing, saves and closes otherwise', async () => {
    const warn = vi.spyOn(notify, 'warning');
    const onSave = vi.fn();
    const onClose = vi.fn();
    const user = userEvent.setup();
    render(<ItemPicker itemName="Produto" load={source()} onSave={onSave} onClose={onClose} />);
    await screen.findByText('1 - Parafuso');
    await user.click(screen.getByRole('button', { name: 'SALVAR' }));
    expect(warn).toHaveBeenCalledWith('Nenhum item selecionado!');
    expect(onSave).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Aumentar Parafuso' }));
    await user.click(screen.getByRole('button', { name: 'SALVAR' }));
    expect(onSave).toHaveBeenCalledWith([expect.objectContaining({ id: 1, quantity: 1 })]);
    expect(onClose).toHaveBeenCalled();
  });

  it('asks before grouping an item already launched', async () => {
    const onSave = vi.fn();
    const user = userEvent.setup();
    render(
      <ItemPicker itemName="Produto" load={source()} onSave={onSave} onClose={vi.fn()} ungroup launchedIds={[1]} />,
    );
    await screen.findByText('1 - Parafuso');
    await user.click(screen.getByRole('button', { name: 'Aumentar Parafuso' }));
    expect(screen.getByText('Esse item já foi lançado, deseja agrupar ?')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Não' }));
    expect(screen.getByLabelText('Quantidade de Parafuso')).toHaveValue('');
    await user.click(screen.getByRole('button', { name: 'Aumentar Parafuso' }));
    await user.click(screen.getByRole('button', { name: 'Sim' }));
    await user.click(screen.getByRole('button', { name: 'SALVAR' }));
    expect(onSave).toHaveBeenCalledWith([expect.objectContaining({ id: 1, quantity: 1, group: true })]);
  });

  it('searches after 300 ms from page 0 and pages on scroll', async () => {
    const load = source();
    render(<ItemPicker itemName="Produto" load={load} onSave={vi.fn()} onClose={vi.fn()} />);
    await screen.findByText('1 - Parafuso');
    const list = screen.getByTestId('picker-list');
    Object.defineProperties(list, {
      scrollHeight: { value: 1000, configurable: true },
      clientHeight: { value: 400, configurable: true },
      scrollTop: { value: 560, configurable: true, writable: true },
    });
    fireEvent.scroll(list);
    await screen.findByText('21 - Item 21');
    expect(load).toHaveBeenLastCalledWith(1, '');

    vi.useFakeTimers();
    fireEvent.change(screen.getByLabelText('Pesquisar'), { target: { value: 'parafuso' } });
    await act(async () => vi.advanceTimersByTime(299));
    expect(load).not.toHaveBeenCalledWith(0, 'parafuso');
    await act(async () => vi.advanceTimersByTime(1));
    vi.useRealTimers();
    await waitFor(() => expect(load).toHaveBeenLastCalledWith(0, 'parafuso'));
    await waitFor(() => expect(screen.queryByText('21 - Item 21')).not.toBeInTheDocument());
    expect(screen.getByText('1 item')).toBeInTheDocument();
  });

  it('reports a failed load', async () => {
    const error = vi.spyOn(notify, 'error');
    render(
      <ItemPicker itemName="Produto" load={() => Promise.reject(new Error('x'))} onSave={vi.fn()} onClose={vi.fn()} />,
    );
    await waitFor(() => expect(error).toHaveBeenCalledWith('Erro ao carregar produtos'));
  });
});
