import { useApolloClient } from '@apollo/client';
import { useCallback } from 'react';
import { errorMessage } from '../../lib/apollo';
import { requestFile, requestJson } from '../../lib/restForms';
import type { DocumentRegister } from '../../lib/resources/metaFields';
import { evictReads } from '../../lib/resources/recordCache';
import { useCompanyId } from '../../lib/resources/useResourceData';
import { purchaseSupplier, type ImportAnswer } from './importAnswer';
import { MANIFEST, manifestSupplierPath, manifestXmlPath, xmlName, type ManifestNfe } from './manifestPurchase';
import { useImportXml } from './useImportXml';

/** What 'Gerar Compra' did: the import's answer, and why the NF-e was not linked to it (null: it was). */
export interface MadePurchase {
  answer: ImportAnswer;
  unlinked: string | null;
}

/**
 * 'Gerar Compra': the NF-e's XML (POST /manifestonfe/download/doc) is imported as a purchase
 * the way the purchases list imports one (POST /compra/uploads/{emp}), then the NF-e names its
 * supplier and the purchase (POST /manifestonfe/updatefornecedor). The purchase exists once
 * imported: a failed link is told, not thrown. The manifest's cached reads go either way.
 */
export function useMakePurchase(purchases: DocumentRegister) {
  const client = useApolloClient();
  const emp = useCompanyId();
  const importXml = useImportXml(purchases);
  return useCallback(
    async (record: ManifestNfe): Promise<MadePurchase> => {
      const xml = await requestFile(manifestXmlPath, {
        json: { MAN_ID: record.MAN_ID },
        fallbackName: xmlName(record),
      });
      const bytes = await xml.blob.arrayBuffer();
      const answer = await importXml(new File([bytes], xml.name, { type: xml.blob.type || 'application/xml' }));
      const supplier = purchaseSupplier(answer.compra);
      let unlinked: string | null = null;
      if (supplier == null) {
        unlinked = 'A compra não tem fornecedor.';
      } else {
        try {
          await requestJson(manifestSupplierPath, {
            json: { MAN_ID: record.MAN_ID, FOR_ID: supplier, COMP_ID: answer.compra.COMP_ID },
          });
        } catch (e) {
          unlinked = errorMessage(e);
        }
      }
      evictReads(client.cache, [{ name: MANIFEST, emp }]);
      return { answer, unlinked };
    },
    [client, emp, importXml],
  );
}
