import { graphql } from '../../generated';

/** A register's declared call (invoice, convert, totalize...): path parameters by name, `emp` included. */
export const ResourceActionDocument = graphql(`
  mutation ResourceAction($name: String!, $action: String!, $params: JSON!, $body: JSON) {
    resourceAction(name: $name, action: $action, params: $params, body: $body)
  }
`);
