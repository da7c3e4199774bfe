import { act, render, renderHook, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useMemo } from 'react';
import { describe, expect, it } from 'vitest';
import type { GroupDescriptor } from '../fields/types';
import { FormView, fieldsOf } from './FormView';
import { useFormState } from './useFormState';

const groups: GroupDescriptor[] = [
  {
    title: 'Dados',
    framed: true,
    fields: [
      { name: 'CLI_DESCRICAO', type: 'TEXT', text: 'Nome', required: true },
      { name: 'CLI_EMAIL', type: 'EMAIL', text: 'E-mail' },
      { name: 'CLI_FONES', type: 'PHONES', text: 'Telefones', required: true },
      { name: 'CLI_LIMITE', type: 'MONEY', text: 'Limite', max: '1000' },
    ],
  },
  { title: 'Oculto', mostrar: false, fields: [{ name: 'X', type: 'TEXT', text: 'Escondido', required: true }] },
];

function Harness({ editable = true, onReady }: { editable?: boolean; onReady?: (v: () => boolean) => void }) {
  const fields = useMemo(() => fieldsOf(groups), []);
  const form = useFormState(fields, { CLI_DESCRICAO: '', CLI_EMAIL: '', CLI_FONES: [], CLI_LIMITE: '' });
  onReady?.(form.validateAll);
  return (
    <>
      <FormView form={form} groups={groups} editable={editable} />
      <button type="button" onClick={() => form.validateAll()}>
        validar
      </button>
    </>
  );
}

describe('FormView', () => {
  it('shows group titles, hides groups with mostrar false', () => {
    render(<Harness />);
    expect(screen.getByText('Dados')).toBeInTheDocument();
    expect(screen.queryByText('Oculto')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Escondido')).not.toBeInTheDocument();
  });

  it('validates every field and focuses the first invalid one', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('button', { name: 'validar' }));
    expect(screen.getByText('Nome é obrigatório!')).toBeInTheDocument();
    expect(screen.getByText('Telefones é obrigatório!')).toBeInTheDocument();
    expect(screen.getByLabelText(/Nome/)).toHaveFocus();
    expect(screen.queryByText('Escondido é obrigatório!')).not.toBeInTheDocument();
  });

  it('re-checks a field with a message as the user corrects it', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('button', { name: 'validar' }));
    await user.type(screen.getByLabelText(/Nome/), 'Maria');
    expect(screen.queryByText('Nome é obrigatório!')).not.toBeInTheDocument();
  });

  it('applies e-mail and max rules', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.type(screen.getByLabelText('E-mail'), 'maria@');
    await user.type(screen.getByLabelText('Limite'), '2000');
    await user.click(screen.getByRole('button', { name: 'validar' }));
    expect(screen.getByText('E-mail inválido.')).toBeInTheDocument();
    expect(screen.getByText('Valor Máximo permitido para o campo: 1000')).toBeInTheDocument();
  });

  it('adds phones on Enter or ";" after validation', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const phones = screen.getByLabelText(/Telefones/);
    await user.type(phones, '1198765{Enter}');
    expect(screen.getByText('Número incompleto')).toBeInTheDocument();
    await user.clear(phones);
    await user.type(phones, '{Enter}');
    expect(screen.getByText('Número incompleto.')).toBeInTheDocument();
    await user.type(phones, '11987654321;');
    expect(screen.getByText('(11) 98765-4321')).toBeInTheDocument();
    expect(phones).toHaveValue('');
  });

  it('disables every field when the form is not editable', () => {
    render(<Harness editable={false} />);
    expect(screen.getByLabelText(/Nome/)).toBeDisabled();
    expect(screen.getByLabelText('E-mail')).toBeDisabled();
  });

  it('returns whether the form is valid', () => {
    const fields = fieldsOf(groups);
    const { result } = renderHook(() => useFormState(fields, { CLI_DESCRICAO: 'Ana', CLI_FONES: ['11987654321'] }));
    let valid = false;
    act(() => {
      valid = result.current.validateAll();
    });
    expect(valid).toBe(true);
  });
});
