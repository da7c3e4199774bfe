import { useMutation } from '@apollo/client';
import { useCallback } from 'react';
import { ResourceActionDocument } from '../../lib/resources/documents';
import type { DocumentRegister } from '../../lib/resources/metaFields';
import { evictReads } from '../../lib/resources/recordCache';
import { useCompanyId } from '../../lib/resources/useResourceData';
import { productLine } from './importAnswer';
import { parsePriceUpdate, PRICE_UPDATE_ACTION, type PriceUpdateAnswer, type PriceUpdateBody } from './priceUpdate';
import { PRODUCT_REGISTER } from './useImportXml';

/**
 * Updates the cost (and, by margin, the sale price) of a purchase's products from its landed
 * cost: `atualizacaogeral` of the purchase's line register. The call changes the products, so
 * the product register's cached pages and records are evicted (a list or picker on screen reads
 * them again); the purchase itself does not change.
 */
export function usePriceUpdate(meta: DocumentRegister) {
  const emp = useCompanyId();
  const [run, { loading }] = useMutation(ResourceActionDocument);
  const line = productLine(meta).resource;
  const update = useCallback(
    async (body: PriceUpdateBody): Promise<PriceUpdateAnswer> => {
      const { data } = await run({
        variables: { name: line, action: PRICE_UPDATE_ACTION, params: { emp }, body },
        update: (cache) => evictReads(cache, [{ name: PRODUCT_REGISTER, emp }]),
      });
      return parsePriceUpdate(data?.resourceAction);
    },
    [run, line, emp],
  );
  return { update, loading };
}
