import { graphql } from '../../generated';

export const ResourceMetaFieldsFragment = graphql(`
  fragment ResourceMetaFields on ResourceMeta {
    name
    path
    title
    program
    key
    companyColumn
    labelField
    labelLength
    defaultOrder
    fields {
      name
      label
      kind
      required
      editable
      length
      min
      max
      mask
      searchable
      reference
      options {
        value
        text
      }
      uploadTypes
      width
      inList
      inForm
      defaultValue
    }
    groups {
      title
      framed
      width
      fields
    }
    document {
      key
      dateField
      breadcrumbs
      blockStock
      status {
        field
        open
        labels {
          value
          text
          tone
        }
      }
      totals {
        name
        label
      }
      lines {
        resource
        kind
        title
        itemName
        key
        parent
        seq
        item
        desc
        unitName
        qty
        price
        discount
        total
        cost
        editable
        lockedBy
      }
      children {
        resource
        title
        parent
      }
    }
    actions {
      name
      method
      path
      label
      confirm {
        title
        text
        ok
      }
      openWhen
      unless
      params {
        name
        source {
          from
          value
        }
      }
      body {
        name
        source {
          from
          value
        }
      }
      dialog
      dialogTitle
      opens
      primary
      permission
      download
    }
  }
`);

export const ResourceMetasDocument = graphql(`
  query ResourceMetas {
    resourceMetas {
      ...ResourceMetaFields
    }
  }
`);

/** One register's metadata, whether or not it has a screen of its own (a document's line register). */
export const ResourceMetaDocument = graphql(`
  query ResourceMeta($name: String!) {
    resourceMeta(name: $name) {
      ...ResourceMetaFields
    }
  }
`);

export const ResourceListDocument = graphql(`
  query ResourceList($name: String!, $emp: Int!, $input: ListInput) {
    resourceList(name: $name, emp: $emp, input: $input) {
      rows
      total
    }
  }
`);

export const ResourceGetDocument = graphql(`
  query ResourceGet($name: String!, $emp: Int!, $id: JSON!) {
    resourceGet(name: $name, emp: $emp, id: $id)
  }
`);

export const ResourceCreateDocument = graphql(`
  mutation ResourceCreate($name: String!, $emp: Int!, $data: JSON!) {
    resourceCreate(name: $name, emp: $emp, data: $data)
  }
`);

export const ResourceUpdateDocument = graphql(`
  mutation ResourceUpdate($name: String!, $emp: Int!, $id: JSON!, $data: JSON!) {
    resourceUpdate(name: $name, emp: $emp, id: $id, data: $data)
  }
`);

export const ResourceDeleteDocument = graphql(`
  mutation ResourceDelete($name: String!, $emp: Int!, $id: JSON!) {
    resourceDelete(name: $name, emp: $emp, id: $id)
  }
`);

/**
 * A register's declared call (invoice, convert, settle, reverse...): path parameters by name,
 * `emp` included, and the JSON body. Documents run their buttons with it; finance its
 * settlement calls.
 */
export const ResourceActionDocument = graphql(`
  mutation ResourceAction($name: String!, $action: String!, $params: JSON!, $body: JSON) {
    resourceAction(name: $name, action: $action, params: $params, body: $body)
  }
`);
