import { createContext, lazy, Suspense, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import type { ConfirmSettings } from './ConfirmDialog';
import type { EmailSettings } from './EmailDialog';
import type { GenericDialogSettings } from './GenericDialog';
import type { WhatsAppSettings } from './WhatsAppDialog';

// Loaded on first use: the forms inside them are not needed to start the app.
const ConfirmDialog = lazy(() => import('./ConfirmDialog').then((m) => ({ default: m.ConfirmDialog })));
const EmailDialog = lazy(() => import('./EmailDialog').then((m) => ({ default: m.EmailDialog })));
const GenericDialog = lazy(() => import('./GenericDialog').then((m) => ({ default: m.GenericDialog })));
const WhatsAppDialog = lazy(() => import('./WhatsAppDialog').then((m) => ({ default: m.WhatsAppDialog })));

export interface Dialogs {
  confirm: (s: ConfirmSettings) => void;
  whatsapp: (s: WhatsAppSettings) => void;
  email: (s: EmailSettings) => void;
  open: (s: GenericDialogSettings) => void;
}

const DialogContext = createContext<Dialogs | null>(null);

interface State {
  confirm: ConfirmSettings | null;
  whatsapp: WhatsAppSettings | null;
  email: EmailSettings | null;
  generic: GenericDialogSettings | null;
}

const empty: State = { confirm: null, whatsapp: null, email: null, generic: null };

/** The shell's dialogs: each opens when its settings are set and closes when they are cleared. */
export function DialogHost({ children }: { children: ReactNode }) {
  const [state, setState] = useState<State>(empty);
  const set = useCallback(
    <K extends keyof State>(key: K, value: State[K]) => setState((s) => ({ ...s, [key]: value })),
    [],
  );
  const api = useMemo<Dialogs>(
    () => ({
      confirm: (s) => set('confirm', s),
      whatsapp: (s) => set('whatsapp', s),
      email: (s) => set('email', s),
      open: (s) => set('generic', s),
    }),
    [set],
  );
  return (
    <DialogContext.Provider value={api}>
      {children}
      <Suspense fallback={null}>
        {state.generic && <GenericDialog settings={state.generic} onClose={() => set('generic', null)} />}
        {state.confirm && <ConfirmDialog settings={state.confirm} onClose={() => set('confirm', null)} />}
        {state.whatsapp && <WhatsAppDialog settings={state.whatsapp} onClose={() => set('whatsapp', null)} />}
        {state.email && <EmailDialog settings={state.email} onClose={() => set('email', null)} />}
      </Suspense>
    </DialogContext.Provider>
  );
}

export function useDialogs(): Dialogs {
  const ctx = useContext(DialogContext);
  if (!ctx) throw new Error('useDialogs outside DialogHost');
  return ctx;
}
