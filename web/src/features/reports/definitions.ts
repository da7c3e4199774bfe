// The report definitions of a company, read once (GET /relatorios/definicoes/{emp}) and kept
// for the session's life in this module: every report screen finds its own among them by route.
// A failed read is not kept, so the next screen asks again.
import { useEffect, useState } from 'react';
import { requestJson } from '../../lib/restForms';
import { useCompanyId } from '../../lib/resources/useResourceData';
import { normalizePath } from '../../lib/session';
import { parseDefinitions, type ReportDefinition } from './types';

const pending = new Map<number, Promise<ReportDefinition[]>>();
const known = new Map<number, ReportDefinition[]>();

export const definitionsPath = (emp: number) => `/relatorios/definicoes/${emp}`;

/** The company's definitions: the kept ones, else one read shared by every caller. */
export function loadDefinitions(emp: number): Promise<ReportDefinition[]> {
  const kept = known.get(emp);
  if (kept) return Promise.resolve(kept);
  let read = pending.get(emp);
  if (!read) {
    read = requestJson(definitionsPath(emp)).then(parseDefinitions);
    pending.set(emp, read);
    read.then(
      (defs) => {
        known.set(emp, defs);
        pending.delete(emp);
      },
      () => pending.delete(emp),
    );
  }
  return read;
}

/** Forgets what was read (tests; a new session reads again). */
export function resetReportDefinitions() {
  pending.clear();
  known.clear();
}

/** The definition whose ROTA is `path` ('/relatoriodevendas', 'relatoriodevendas/' alike). */
export function findDefinition(defs: ReportDefinition[], path: string): ReportDefinition | undefined {
  const target = normalizePath(path);
  return defs.find((d) => normalizePath(d.ROTA) === target);
}

interface State {
  emp: number;
  defs: ReportDefinition[] | null;
  error: unknown;
}

/** The company's report definitions; `loading` until they are known (at once when kept). */
export function useReportDefinitions(): { definitions: ReportDefinition[]; loading: boolean; error: unknown } {
  const emp = useCompanyId();
  const [state, setState] = useState<State>(() => ({ emp, defs: known.get(emp) ?? null, error: null }));
  useEffect(() => {
    let live = true;
    loadDefinitions(emp).then(
      (defs) => live && setState({ emp, defs, error: null }),
      (error: unknown) => live && setState({ emp, defs: null, error }),
    );
    return () => {
      live = false;
    };
  }, [emp]);
  const current = state.emp === emp;
  const defs = current ? (state.defs ?? known.get(emp) ?? null) : (known.get(emp) ?? null);
  const error = current ? state.error : null;
  return { definitions: defs ?? [], loading: defs == null && error == null, error };
}
