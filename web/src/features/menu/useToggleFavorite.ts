import { useMutation } from '@apollo/client';
import { useCallback } from 'react';
import { getSession, updatePrograms } from '../../lib/session';
import { ToggleFavoriteDocument } from './documents';

/**
 * toggleFavorite. The answered program is a UserProgram (cached by id), so the menu's entry
 * takes the new flag from the cache by itself; the session's stored programs (home page
 * favourites, the star) are updated from the same answer.
 */
export function useToggleFavorite() {
  const [run, { loading }] = useMutation(ToggleFavoriteDocument);
  const toggle = useCallback(
    async (programId: number) => {
      const { data } = await run({ variables: { programId } });
      const updated = data?.toggleFavorite;
      const session = getSession();
      if (updated && session) updatePrograms(session.programs.map((p) => (p.id === updated.id ? updated : p)));
    },
    [run],
  );
  return { toggle, loading };
}
