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
      defaultValue
    }
    groups {
      title
      framed
      width
      fields
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
