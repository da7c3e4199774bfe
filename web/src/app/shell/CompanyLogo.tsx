import { useState } from 'react';
import type { Session } from '../../lib/session';

/** Logos narrower than this show the default logo with the company name instead (spec §2.5). */
export const MIN_LOGO_WIDTH = 100;

export function logoSrc(company: Session['company']): string | null {
  const url = company.logoUrl;
  if (!url) return null;
  if (/^(https?:)?\//.test(url) || url.startsWith('data:')) return url;
  return `/uploads/${company.id}/${url}`;
}

export function CompanyLogo({ company }: { company: Session['company'] }) {
  const src = logoSrc(company);
  const [useDefault, setUseDefault] = useState(!src);
  const name = company.fantasyName || company.name;
  if (useDefault || !src) {
    return (
      <div data-testid="default-logo" className="flex items-center gap-2 rounded bg-white/10 p-2">
        <span className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-white text-lg font-bold text-primary">
          {name.charAt(0).toUpperCase()}
        </span>
        <span className="line-clamp-2 text-xs font-medium">{name}</span>
      </div>
    );
  }
  return (
    <img
      src={src}
      alt={name}
      className="mx-auto max-h-16 max-w-full rounded bg-white p-1"
      onLoad={(e) => e.currentTarget.naturalWidth < MIN_LOGO_WIDTH && setUseDefault(true)}
      onError={() => setUseDefault(true)}
    />
  );
}
