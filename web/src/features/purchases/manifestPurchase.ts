// A purchase made of an NF-e of the manifest (register `manifestonfe`, the fiscal feature's
// list): 'Gerar Compra' on the NF-e's screen imports its XML the way the purchases list does,
// then links the NF-e to the purchase and its supplier. Here when it is offered and the
// manifest's legacy REST paths it calls.
import type { Row } from '../../lib/api';
import { isTrue } from '../../lib/resources/metaFields';

export const MANIFEST = 'manifestonfe';
/** The purchases register, whose XML import 'Gerar Compra' reuses. */
export { PURCHASES } from './importAnswer';

/** An NF-e of the manifest: a row of its register. */
export type ManifestNfe = Row<typeof MANIFEST>;

/** POST {MAN_ID}: the NF-e's XML (the whole one once available). */
export const manifestXmlPath = `/${MANIFEST}/download/doc`;
/** POST {MAN_ID, FOR_ID, COMP_ID?}: the NF-e's supplier and the purchase it became. */
export const manifestSupplierPath = `/${MANIFEST}/updatefornecedor`;

/**
 * 'Gerar Compra' is offered for an NF-e whose whole XML is stored (MAN_COMPLETA), that is not
 * a purchase yet (MAN_COMP_ID) and that the company acknowledged or confirmed (MAN_SITUACAO C
 * or F: an unknown or not realised operation is no purchase).
 */
export function canMakePurchase(record: ManifestNfe): boolean {
  const purchase = record.MAN_COMP_ID;
  return (
    isTrue(record.MAN_COMPLETA) &&
    (purchase == null || purchase === 0) &&
    ['C', 'F'].includes(String(record.MAN_SITUACAO ?? ''))
  );
}

/** The name of an NF-e's XML when the server gives none: `{key}-nfe.xml`. */
export const xmlName = (record: ManifestNfe) => `${String(record.MAN_CHAVE ?? record.MAN_ID ?? 'nfe')}-nfe.xml`;
