import { Link } from 'react-router';
import { usePageMeta } from '../../lib/pageMeta';

export default function NotFoundPage() {
  usePageMeta('Página não encontrada', 'NotFound');
  return (
    <section className="flex flex-col items-center justify-center gap-2 py-16 text-center">
      <p className="text-6xl font-bold text-primary">404</p>
      <p className="text-slate-600">A página que você procura não existe.</p>
      <Link to="/" className="text-accent underline">
        Voltar à Página Inicial
      </Link>
    </section>
  );
}
