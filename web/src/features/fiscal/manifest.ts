// The NF-e manifest (register `manifestonfe`): the NF-e issued against the company, fetched
// from the SEFAZ through the distribution or uploaded as XML, and what the company says of
// each (its buttons come from the metadata). Here what its list adds that the metadata cannot
// declare: fetching from the SEFAZ and sending an XML, by their legacy REST paths. (A purchase
// made of an NF-e, 'Gerar Compra', is the purchases feature's: purchases/manifestPurchase.ts.)

export const MANIFEST = 'manifestonfe';

/** POST {}: fetches from the SEFAZ the NF-e issued against company `emp` since its last NSU. */
export const distributionPath = (emp: number) => `/${MANIFEST}/distribuicao/${emp}`;
/** POST multipart `file`: an NF-e XML received outside the distribution. */
export const uploadPath = `/${MANIFEST}`;

/**
 * The distribution can wait on the SEFAZ for several rounds (each until its answer is ready):
 * longer than the other REST calls.
 */
export const DISTRIBUTION_TIMEOUT_MS = 180_000;

/** What the distribution answered that the screen shows: its message and warnings. */
export interface DistributionNotice {
  message: string;
  warnings: string[];
}

export function distributionNotice(answer: unknown): DistributionNotice {
  const a = (answer ?? {}) as { msg?: unknown; AVISOS?: unknown };
  return {
    message: typeof a.msg === 'string' && a.msg.trim() ? a.msg : 'Consulta à SEFAZ concluída.',
    warnings: Array.isArray(a.AVISOS) ? a.AVISOS.map(String).filter(Boolean) : [],
  };
}

/** The message a call's answer carries (`msg`), else `fallback`. */
export const answerMessage = (answer: unknown, fallback: string): string => {
  const msg = (answer as { msg?: unknown } | null)?.msg;
  return typeof msg === 'string' && msg.trim() ? msg : fallback;
};
