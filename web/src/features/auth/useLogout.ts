import { useApolloClient, useMutation } from '@apollo/client';
import { useNavigate } from 'react-router';
import { clearSession } from '../../lib/session';
import { LogoutDocument } from './documents';

/** 'Sair': tells the server (the token is revoked there), then forgets the session here. */
export function useLogout() {
  const client = useApolloClient();
  const navigate = useNavigate();
  const [logout] = useMutation(LogoutDocument);
  return async () => {
    try {
      await logout();
    } catch {
      // The session is dropped locally whatever the server answered.
    }
    clearSession();
    await client.clearStore();
    navigate('/login', { replace: true });
  };
}
