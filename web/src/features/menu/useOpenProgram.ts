import type { MouseEvent } from 'react';
import { useNavigate } from 'react-router';
import { MSG } from '../../lib/messages';
import { webHref, type Program } from '../../lib/session';
import { notify } from '../../lib/toast';
import { useIsMobile } from '../../lib/useIsMobile';

/**
 * Opens a menu entry: its web path (a new tab with Ctrl), or, for desktop-only programs,
 * the desktop launcher. The launcher needs the local connection (/conexaolocal) that this
 * client does not pair yet, so such entries explain why they cannot open.
 */
export function useOpenProgram() {
  const navigate = useNavigate();
  const mobile = useIsMobile();
  return (program: Program, e?: MouseEvent) => {
    if (program.webPath) {
      const href = webHref(program.webPath);
      e?.preventDefault();
      if (e && (e.ctrlKey || e.metaKey)) window.open(href, '_blank');
      else navigate(href);
      return true;
    }
    e?.preventDefault();
    if (program.exe) notify.warning(mobile ? MSG.desktopOnly : MSG.launcherMissing);
    return false;
  };
}
