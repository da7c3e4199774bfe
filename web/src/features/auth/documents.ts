import { graphql } from '../../generated';

export const ProgramFieldsFragment = graphql(`
  fragment ProgramFields on UserProgram {
    id
    name
    description
    webPath
    exe
    icon
    level1
    level2
    level3
    order
    favorite
    canView
    canCreate
    canUpdate
    canDelete
  }
`);

export const SessionFieldsFragment = graphql(`
  fragment SessionFields on Session {
    clientId
    privileged
    serverVersion
    user {
      id
      login
      name
      companyId
    }
    company {
      id
      name
      taxId
      fantasyName
      logoUrl
    }
    companies {
      id
      name
      taxId
      fantasyName
      logoUrl
    }
    programs {
      ...ProgramFields
    }
  }
`);

export const LoginDocument = graphql(`
  mutation Login($input: LoginInput!) {
    login(input: $input) {
      token
      session {
        ...SessionFields
      }
    }
  }
`);

export const MeDocument = graphql(`
  query Me {
    me {
      ...SessionFields
    }
  }
`);

export const LogoutDocument = graphql(`
  mutation Logout {
    logout
  }
`);

export const ServerVersionDocument = graphql(`
  query ServerVersion {
    serverVersion
  }
`);
