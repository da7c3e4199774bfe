import { secondaryButton } from '../fields/styles';

interface Props {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
}

/** Pages are numbered from 1. */
export function Pager({ page, pageSize, total, onPage }: Props) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <nav
      aria-label="Paginação"
      className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm text-slate-600"
    >
      <span className="whitespace-nowrap">Total de registros: {total}</span>
      <div className="flex items-center gap-2">
        <button type="button" className={secondaryButton} disabled={page <= 1} onClick={() => onPage(1)}>
          Primeira
        </button>
        <button type="button" className={secondaryButton} disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Anterior
        </button>
        <span className="whitespace-nowrap">
          Página {page} de {pages}
        </span>
        <button type="button" className={secondaryButton} disabled={page >= pages} onClick={() => onPage(page + 1)}>
          Próxima
        </button>
        <button type="button" className={secondaryButton} disabled={page >= pages} onClick={() => onPage(pages)}>
          Última
        </button>
      </div>
    </nav>
  );
}
