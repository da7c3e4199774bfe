import { ApolloProvider } from '@apollo/client';
import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { Toaster } from 'sonner';
import { DialogHost } from '../components/dialogs/DialogHost';
import { createApolloClient } from '../lib/apollo';
import { clearSession, getToken } from '../lib/session';
import { createRouter } from './router';

function createApp() {
  const router = createRouter();
  const client = createApolloClient({
    getToken,
    // A 401 (or UNAUTHENTICATED) on a signed-in session logs out and goes to /login.
    onUnauthenticated: () => {
      if (!getToken()) return;
      clearSession();
      void client.clearStore();
      void router.navigate('/login', { replace: true });
    },
  });
  return { router, client };
}

export function App() {
  const [{ router, client }] = useState(createApp);
  return (
    <ApolloProvider client={client}>
      <DialogHost>
        <RouterProvider router={router} />
      </DialogHost>
      {/* Below the 48 px top bar, so the bell and the user menu stay reachable. */}
      <Toaster richColors position="top-right" closeButton offset={{ top: 56, right: 16 }} mobileOffset={{ top: 52 }} />
    </ApolloProvider>
  );
}
