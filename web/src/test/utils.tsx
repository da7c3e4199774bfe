import type { ApolloCache, ApolloLink } from '@apollo/client';
import { MockedProvider, type MockedResponse } from '@apollo/client/testing';
import { render } from '@testing-library/react';
import { useState, type ReactElement, type ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { DialogHost } from '../components/dialogs/DialogHost';
import { createCache } from '../lib/apollo';
import { saveSession, type Program, type SessionData } from '../lib/session';

export function program(over: Partial<Program> & { id: number; name: string }): Program {
  return {
    description: over.name,
    webPath: null,
    exe: null,
    icon: null,
    level1: 'CADASTROS',
    level2: null,
    level3: null,
    order: over.id,
    favorite: false,
    canView: true,
    canCreate: true,
    canUpdate: true,
    canDelete: true,
    ...over,
  };
}

export function sessionData(over: Partial<SessionData> = {}): SessionData {
  const company = {
    id: 1,
    name: 'Empresa Teste LTDA',
    taxId: '11.222.333/0001-81',
    fantasyName: 'Empresa Teste',
    logoUrl: null,
  };
  return {
    clientId: 7,
    privileged: false,
    serverVersion: '4.0.2',
    user: { id: 3, login: 'admin', name: 'Administrador', companyId: 1 },
    company,
    companies: [company],
    programs: [],
    ...over,
  };
}

export function signIn(over: Partial<SessionData> = {}) {
  saveSession(sessionData(over), 'token-123');
}

interface Options {
  mocks?: MockedResponse[];
  route?: string;
  /** The app's cache by default; a test that inspects the cache after a write passes its own. */
  cache?: ApolloCache<object>;
  /** Instead of the mocks: a link the test drives, e.g. MockSubscriptionLink pushing subscription data. */
  link?: ApolloLink;
}

export function Providers({ children, mocks = [], route = '/', cache, link }: Options & { children: ReactNode }) {
  const [ownCache] = useState(() => cache ?? createCache());
  return (
    <MockedProvider mocks={mocks} cache={ownCache} link={link}>
      <DialogHost>
        <MemoryRouter initialEntries={[route]}>{children}</MemoryRouter>
      </DialogHost>
    </MockedProvider>
  );
}

export function renderWith(ui: ReactElement, options: Options = {}) {
  return render(<Providers {...options}>{ui}</Providers>);
}
