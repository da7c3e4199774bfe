import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { notify } from '../../lib/toast';
import { FieldInput } from './FieldInput';
import type { FieldDescriptor, OptionLookup, OptionSearch } from './types';

afterEach(() => vi.restoreAllMocks());

function Controlled({
  field,
  initial,
  search,
  lookup,
}: {
  field: FieldDescriptor;
  initial: unknown;
  search?: OptionSearch;
  lookup?: OptionLookup;
}) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <FieldInput
        field={field}
        id={`t-${field.name}`}
        value={value}
        onChange={setValue}
        error={null}
        disabled={false}
        search={search}
        lookup={lookup}
        uploadsBase="/uploads/1"
      />
      <output data-testid="value">{JSON.stringify(value)}</output>
    </>
  );
}

const options = ['A', 'B', 'C', 'D', 'E'].map((v) => ({ value: v, text: `Opção ${v}` }));

describe('field components', () => {
  it('checklist splits into two rows above 4 options', () => {
    render(<Controlled field={{ name: 'C', type: 'CHECKLIST', text: 'Dias', options }} initial={[]} />);
    const group = screen.getByRole('group');
    expect(group.children).toHaveLength(2);
    fireEvent.click(screen.getByLabelText('Opção B'));
    expect(screen.getByTestId('value')).toHaveTextContent('["B"]');
  });

  it('situation buttons mark the selected one', async () => {
    render(
      <Controlled
        field={{ name: 'S', type: 'SITUATION', text: 'Situação', options: options.slice(0, 3) }}
        initial="A"
      />,
    );
    expect(screen.getByRole('radio', { name: 'Opção A' })).toHaveAttribute('aria-checked', 'true');
    await userEvent.click(screen.getByRole('radio', { name: 'Opção C' }));
    expect(screen.getByRole('radio', { name: 'Opção C' })).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByRole('radio', { name: 'Opção A' })).toHaveAttribute('aria-checked', 'false');
  });

  it("chips refuse an item already added with 'Item já adicionado'", async () => {
    const user = userEvent.setup();
    render(<Controlled field={{ name: 'K', type: 'CHIPS', text: 'Tags', options }} initial={['A']} />);
    await user.click(screen.getByLabelText('Tags'));
    await user.click(screen.getByRole('button', { name: 'Opção A' }));
    expect(screen.getByText('Item já adicionado')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Opção B' }));
    expect(screen.getByTestId('value')).toHaveTextContent('["A","B"]');
    await user.click(screen.getByRole('button', { name: 'Remover Opção A' }));
    expect(screen.getByTestId('value')).toHaveTextContent('["B"]');
  });

  it('autocomplete searches the referenced register after typing', async () => {
    const search = vi.fn<OptionSearch>(async (_ref, filter) =>
      filter ? [{ value: '7', text: `7 - ${filter.toUpperCase()}` }] : [],
    );
    const user = userEvent.setup();
    render(
      <Controlled
        field={{ name: 'CID', type: 'AUTOCOMPLETE', text: 'Cidade', reference: 'cidades' }}
        initial=""
        search={search}
      />,
    );
    await user.click(screen.getByLabelText('Cidade'));
    expect(screen.getByText('Digite para pesquisar...')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Cidade'), 'campinas');
    await user.click(await screen.findByRole('button', { name: '7 - CAMPINAS' }, { timeout: 2000 }));
    expect(search).toHaveBeenLastCalledWith('cidades', 'campinas', null);
    expect(screen.getByTestId('value')).toHaveTextContent('"7"');
    expect(screen.getByLabelText('Cidade')).toHaveValue('7 - CAMPINAS');
  });

  it('combobox lists the referenced register and keeps a stored value beyond its first rows', async () => {
    const search = vi.fn<OptionSearch>(async () => [
      { value: '1', text: 'À vista' },
      { value: '2', text: '30/60 dias' },
    ]);
    const lookup = vi.fn<OptionLookup>(async (_ref, value) => ({ value, text: 'Condição antiga' }));
    const user = userEvent.setup();
    render(
      <Controlled
        field={{ name: 'CNDP', type: 'COMBOBOX', text: 'Condição', reference: 'condicaopagamento', where: { X: 1 } }}
        initial="99"
        search={search}
        lookup={lookup}
      />,
    );
    expect(await screen.findByRole('option', { name: '30/60 dias' })).toBeInTheDocument();
    expect(search).toHaveBeenCalledWith('condicaopagamento', '', { X: 1 });
    expect(await screen.findByRole('option', { name: 'Condição antiga' })).toBeInTheDocument();
    expect(screen.getByLabelText('Condição')).toHaveValue('99');
    await user.selectOptions(screen.getByLabelText('Condição'), '2');
    expect(screen.getByTestId('value')).toHaveTextContent('"2"');
  });

  it('autocomplete shows the text of a stored id', async () => {
    const lookup = vi.fn<OptionLookup>(async (_ref, value) => ({ value, text: 'São Paulo' }));
    render(
      <Controlled
        field={{ name: 'CID', type: 'AUTOCOMPLETE', text: 'Cidade', reference: 'cidades' }}
        initial="3550308"
        search={async () => []}
        lookup={lookup}
      />,
    );
    await waitFor(() => expect(screen.getByLabelText('Cidade')).toHaveValue('São Paulo'));
    expect(lookup).toHaveBeenCalledWith('cidades', '3550308');
  });

  it('upload refuses types out of the list', async () => {
    const warn = vi.spyOn(notify, 'warning');
    const { container } = render(<Controlled field={{ name: 'U', type: 'UPLOAD', text: 'Anexo' }} initial={[]} />);
    const input = container.querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['x'], 'planilha.xlsx')] } });
    await waitFor(() => expect(warn).toHaveBeenCalledWith('Permitidos apenas imagens e PDF!'));
    fireEvent.change(input, { target: { files: [new File(['x'], 'nota.pdf', { type: 'application/pdf' })] } });
    await waitFor(() => expect(screen.getByRole('link', { name: 'nota.pdf' })).toBeInTheDocument());
    expect(container.querySelector('input[type=file]')).toBeNull();
  });

  it('the gallery hides its add control at 12 images', () => {
    const eleven = Array.from({ length: 11 }, (_, i) => `foto${i}.png`);
    const { unmount } = render(<Controlled field={{ name: 'G', type: 'GALLERY', text: 'Fotos' }} initial={eleven} />);
    expect(screen.getByText('Adicionar imagens')).toBeInTheDocument();
    expect(screen.getAllByRole('img')[0]).toHaveAttribute('src', '/uploads/1/foto0.png');
    unmount();
    render(<Controlled field={{ name: 'G', type: 'GALLERY', text: 'Fotos' }} initial={[...eleven, 'foto11.png']} />);
    expect(screen.queryByText('Adicionar imagens')).not.toBeInTheDocument();
  });

  it('masks CPF/CNPJ, CEP, dates and money as typed', async () => {
    const user = userEvent.setup();
    render(
      <>
        <Controlled field={{ name: 'D', type: 'CPF_CNPJ', text: 'Documento' }} initial="" />
        <Controlled field={{ name: 'Z', type: 'CEP', text: 'CEP' }} initial="" />
        <Controlled field={{ name: 'N', type: 'DATE', text: 'Data' }} initial="" />
        <Controlled field={{ name: 'M', type: 'MONEY', text: 'Valor' }} initial="" />
      </>,
    );
    await user.type(screen.getByLabelText('Documento'), '12abc34501de35');
    expect(screen.getByLabelText('Documento')).toHaveValue('12.ABC.345/01DE-35');
    await user.type(screen.getByLabelText('CEP'), '01001000');
    expect(screen.getByLabelText('CEP')).toHaveValue('01001-000');
    await user.type(screen.getByLabelText('Data'), '09032024');
    expect(screen.getByLabelText('Data')).toHaveValue('09/03/2024');
    await user.type(screen.getByLabelText('Valor'), '1234,5');
    await user.tab();
    expect(screen.getByLabelText('Valor')).toHaveValue('1.234,50');
  });
});
