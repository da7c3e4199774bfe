// Copying a text the user needs elsewhere (a slip's digitable line, a Pix 'copia e cola').
import { notify } from './toast';

/**
 * Copies `text` to the clipboard and says so ('{what} copiado!'); where the browser refuses
 * (no secure context, no permission) it says to copy by hand.
 */
export async function copyText(text: string, what: string): Promise<boolean> {
  try {
    if (!navigator.clipboard) throw new Error('no clipboard');
    await navigator.clipboard.writeText(text);
    notify.success(`${what} copiado!`);
    return true;
  } catch {
    notify.error(`Não foi possível copiar: selecione o texto e copie manualmente.`);
    return false;
  }
}
