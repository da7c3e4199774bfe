/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  fragment ProgramFields on UserProgram {\n    id\n    name\n    description\n    webPath\n    exe\n    icon\n    level1\n    level2\n    level3\n    order\n    favorite\n    canView\n    canCreate\n    canUpdate\n    canDelete\n  }\n": typeof types.ProgramFieldsFragmentDoc,
    "\n  fragment SessionFields on Session {\n    clientId\n    privileged\n    serverVersion\n    user {\n      id\n      login\n      name\n      companyId\n    }\n    company {\n      id\n      name\n      taxId\n      fantasyName\n      logoUrl\n    }\n    companies {\n      id\n      name\n      taxId\n      fantasyName\n      logoUrl\n    }\n    programs {\n      ...ProgramFields\n    }\n  }\n": typeof types.SessionFieldsFragmentDoc,
    "\n  mutation Login($input: LoginInput!) {\n    login(input: $input) {\n      token\n      session {\n        ...SessionFields\n      }\n    }\n  }\n": typeof types.LoginDocument,
    "\n  query Me {\n    me {\n      ...SessionFields\n    }\n  }\n": typeof types.MeDocument,
    "\n  mutation Logout {\n    logout\n  }\n": typeof types.LogoutDocument,
    "\n  query ServerVersion {\n    serverVersion\n  }\n": typeof types.ServerVersionDocument,
    "\n  subscription DashboardChanged($emp: Int!) {\n    dashboardChanged(emp: $emp)\n  }\n": typeof types.DashboardChangedDocument,
    "\n  query Menu {\n    menu {\n      label\n      icon\n      program {\n        ...ProgramFields\n      }\n      children {\n        label\n        icon\n        program {\n          ...ProgramFields\n        }\n        children {\n          label\n          icon\n          program {\n            ...ProgramFields\n          }\n          children {\n            label\n            icon\n            program {\n              ...ProgramFields\n            }\n          }\n        }\n      }\n    }\n  }\n": typeof types.MenuDocument,
    "\n  mutation ToggleFavorite($programId: Int!) {\n    toggleFavorite(programId: $programId) {\n      ...ProgramFields\n    }\n  }\n": typeof types.ToggleFavoriteDocument,
    "\n  subscription MessagesChanged($emp: Int!) {\n    messagesChanged(emp: $emp)\n  }\n": typeof types.MessagesChangedDocument,
    "\n  subscription Notifications {\n    notifications {\n      id\n      message\n      createdAt\n      kind\n      link\n    }\n  }\n": typeof types.NotificationsDocument,
    "\n  fragment ResourceMetaFields on ResourceMeta {\n    name\n    path\n    title\n    program\n    key\n    companyColumn\n    labelField\n    labelLength\n    defaultOrder\n    fields {\n      name\n      label\n      kind\n      required\n      editable\n      length\n      min\n      max\n      mask\n      searchable\n      reference\n      options {\n        value\n        text\n      }\n      uploadTypes\n      width\n      inList\n      inForm\n      defaultValue\n    }\n    groups {\n      title\n      framed\n      width\n      fields\n    }\n    document {\n      key\n      dateField\n      breadcrumbs\n      blockStock\n      status {\n        field\n        open\n        labels {\n          value\n          text\n          tone\n        }\n      }\n      totals {\n        name\n        label\n      }\n      lines {\n        resource\n        kind\n        title\n        itemName\n        key\n        parent\n        seq\n        item\n        desc\n        unitName\n        qty\n        price\n        discount\n        total\n        cost\n        editable\n        lockedBy\n      }\n      children {\n        resource\n        title\n        parent\n      }\n    }\n    actions {\n      name\n      method\n      path\n      label\n      confirm {\n        title\n        text\n        ok\n      }\n      openWhen\n      unless\n      params {\n        name\n        source {\n          from\n          value\n        }\n      }\n      body {\n        name\n        source {\n          from\n          value\n        }\n      }\n      dialog\n      dialogTitle\n      opens\n      primary\n      permission\n      download\n    }\n  }\n": typeof types.ResourceMetaFieldsFragmentDoc,
    "\n  query ResourceMetas {\n    resourceMetas {\n      ...ResourceMetaFields\n    }\n  }\n": typeof types.ResourceMetasDocument,
    "\n  query ResourceMeta($name: String!) {\n    resourceMeta(name: $name) {\n      ...ResourceMetaFields\n    }\n  }\n": typeof types.ResourceMetaDocument,
    "\n  query ResourceList($name: String!, $emp: Int!, $input: ListInput) {\n    resourceList(name: $name, emp: $emp, input: $input) {\n      rows\n      total\n    }\n  }\n": typeof types.ResourceListDocument,
    "\n  query ResourceGet($name: String!, $emp: Int!, $id: JSON!) {\n    resourceGet(name: $name, emp: $emp, id: $id)\n  }\n": typeof types.ResourceGetDocument,
    "\n  mutation ResourceCreate($name: String!, $emp: Int!, $data: JSON!) {\n    resourceCreate(name: $name, emp: $emp, data: $data)\n  }\n": typeof types.ResourceCreateDocument,
    "\n  mutation ResourceUpdate($name: String!, $emp: Int!, $id: JSON!, $data: JSON!) {\n    resourceUpdate(name: $name, emp: $emp, id: $id, data: $data)\n  }\n": typeof types.ResourceUpdateDocument,
    "\n  mutation ResourceDelete($name: String!, $emp: Int!, $id: JSON!) {\n    resourceDelete(name: $name, emp: $emp, id: $id)\n  }\n": typeof types.ResourceDeleteDocument,
    "\n  mutation ResourceAction($name: String!, $action: String!, $params: JSON!, $body: JSON) {\n    resourceAction(name: $name, action: $action, params: $params, body: $body)\n  }\n": typeof types.ResourceActionDocument,
};
const documents: Documents = {
    "\n  fragment ProgramFields on UserProgram {\n    id\n    name\n    description\n    webPath\n    exe\n    icon\n    level1\n    level2\n    level3\n    order\n    favorite\n    canView\n    canCreate\n    canUpdate\n    canDelete\n  }\n": types.ProgramFieldsFragmentDoc,
    "\n  fragment SessionFields on Session {\n    clientId\n    privileged\n    serverVersion\n    user {\n      id\n      login\n      name\n      companyId\n    }\n    company {\n      id\n      name\n      taxId\n      fantasyName\n      logoUrl\n    }\n    companies {\n      id\n      name\n      taxId\n      fantasyName\n      logoUrl\n    }\n    programs {\n      ...ProgramFields\n    }\n  }\n": types.SessionFieldsFragmentDoc,
    "\n  mutation Login($input: LoginInput!) {\n    login(input: $input) {\n      token\n      session {\n        ...SessionFields\n      }\n    }\n  }\n": types.LoginDocument,
    "\n  query Me {\n    me {\n      ...SessionFields\n    }\n  }\n": types.MeDocument,
    "\n  mutation Logout {\n    logout\n  }\n": types.LogoutDocument,
    "\n  query ServerVersion {\n    serverVersion\n  }\n": types.ServerVersionDocument,
    "\n  subscription DashboardChanged($emp: Int!) {\n    dashboardChanged(emp: $emp)\n  }\n": types.DashboardChangedDocument,
    "\n  query Menu {\n    menu {\n      label\n      icon\n      program {\n        ...ProgramFields\n      }\n      children {\n        label\n        icon\n        program {\n          ...ProgramFields\n        }\n        children {\n          label\n          icon\n          program {\n            ...ProgramFields\n          }\n          children {\n            label\n            icon\n            program {\n              ...ProgramFields\n            }\n          }\n        }\n      }\n    }\n  }\n": types.MenuDocument,
    "\n  mutation ToggleFavorite($programId: Int!) {\n    toggleFavorite(programId: $programId) {\n      ...ProgramFields\n    }\n  }\n": types.ToggleFavoriteDocument,
    "\n  subscription MessagesChanged($emp: Int!) {\n    messagesChanged(emp: $emp)\n  }\n": types.MessagesChangedDocument,
    "\n  subscription Notifications {\n    notifications {\n      id\n      message\n      createdAt\n      kind\n      link\n    }\n  }\n": types.NotificationsDocument,
    "\n  fragment ResourceMetaFields on ResourceMeta {\n    name\n    path\n    title\n    program\n    key\n    companyColumn\n    labelField\n    labelLength\n    defaultOrder\n    fields {\n      name\n      label\n      kind\n      required\n      editable\n      length\n      min\n      max\n      mask\n      searchable\n      reference\n      options {\n        value\n        text\n      }\n      uploadTypes\n      width\n      inList\n      inForm\n      defaultValue\n    }\n    groups {\n      title\n      framed\n      width\n      fields\n    }\n    document {\n      key\n      dateField\n      breadcrumbs\n      blockStock\n      status {\n        field\n        open\n        labels {\n          value\n          text\n          tone\n        }\n      }\n      totals {\n        name\n        label\n      }\n      lines {\n        resource\n        kind\n        title\n        itemName\n        key\n        parent\n        seq\n        item\n        desc\n        unitName\n        qty\n        price\n        discount\n        total\n        cost\n        editable\n        lockedBy\n      }\n      children {\n        resource\n        title\n        parent\n      }\n    }\n    actions {\n      name\n      method\n      path\n      label\n      confirm {\n        title\n        text\n        ok\n      }\n      openWhen\n      unless\n      params {\n        name\n        source {\n          from\n          value\n        }\n      }\n      body {\n        name\n        source {\n          from\n          value\n        }\n      }\n      dialog\n      dialogTitle\n      opens\n      primary\n      permission\n      download\n    }\n  }\n": types.ResourceMetaFieldsFragmentDoc,
    "\n  query ResourceMetas {\n    resourceMetas {\n      ...ResourceMetaFields\n    }\n  }\n": types.ResourceMetasDocument,
    "\n  query ResourceMeta($name: String!) {\n    resourceMeta(name: $name) {\n      ...ResourceMetaFields\n    }\n  }\n": types.ResourceMetaDocument,
    "\n  query ResourceList($name: String!, $emp: Int!, $input: ListInput) {\n    resourceList(name: $name, emp: $emp, input: $input) {\n      rows\n      total\n    }\n  }\n": types.ResourceListDocument,
    "\n  query ResourceGet($name: String!, $emp: Int!, $id: JSON!) {\n    resourceGet(name: $name, emp: $emp, id: $id)\n  }\n": types.ResourceGetDocument,
    "\n  mutation ResourceCreate($name: String!, $emp: Int!, $data: JSON!) {\n    resourceCreate(name: $name, emp: $emp, data: $data)\n  }\n": types.ResourceCreateDocument,
    "\n  mutation ResourceUpdate($name: String!, $emp: Int!, $id: JSON!, $data: JSON!) {\n    resourceUpdate(name: $name, emp: $emp, id: $id, data: $data)\n  }\n": types.ResourceUpdateDocument,
    "\n  mutation ResourceDelete($name: String!, $emp: Int!, $id: JSON!) {\n    resourceDelete(name: $name, emp: $emp, id: $id)\n  }\n": types.ResourceDeleteDocument,
    "\n  mutation ResourceAction($name: String!, $action: String!, $params: JSON!, $body: JSON) {\n    resourceAction(name: $name, action: $action, params: $params, body: $body)\n  }\n": types.ResourceActionDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ProgramFields on UserProgram {\n    id\n    name\n    description\n    webPath\n    exe\n    icon\n    level1\n    level2\n    level3\n    order\n    favorite\n    canView\n    canCreate\n    canUpdate\n    canDelete\n  }\n"): (typeof documents)["\n  fragment ProgramFields on UserProgram {\n    id\n    name\n    description\n    webPath\n    exe\n    icon\n    level1\n    level2\n    level3\n    order\n    favorite\n    canView\n    canCreate\n    canUpdate\n    canDelete\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment SessionFields on Session {\n    clientId\n    privileged\n    serverVersion\n    user {\n      id\n      login\n      name\n      companyId\n    }\n    company {\n      id\n      name\n      taxId\n      fantasyName\n      logoUrl\n    }\n    companies {\n      id\n      name\n      taxId\n      fantasyName\n      logoUrl\n    }\n    programs {\n      ...ProgramFields\n    }\n  }\n"): (typeof documents)["\n  fragment SessionFields on Session {\n    clientId\n    privileged\n    serverVersion\n    user {\n      id\n      login\n      name\n      companyId\n    }\n    company {\n      id\n      name\n      taxId\n      fantasyName\n      logoUrl\n    }\n    companies {\n      id\n      name\n      taxId\n      fantasyName\n      logoUrl\n    }\n    programs {\n      ...ProgramFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Login($input: LoginInput!) {\n    login(input: $input) {\n      token\n      session {\n        ...SessionFields\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation Login($input: LoginInput!) {\n    login(input: $input) {\n      token\n      session {\n        ...SessionFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Me {\n    me {\n      ...SessionFields\n    }\n  }\n"): (typeof documents)["\n  query Me {\n    me {\n      ...SessionFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Logout {\n    logout\n  }\n"): (typeof documents)["\n  mutation Logout {\n    logout\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ServerVersion {\n    serverVersion\n  }\n"): (typeof documents)["\n  query ServerVersion {\n    serverVersion\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription DashboardChanged($emp: Int!) {\n    dashboardChanged(emp: $emp)\n  }\n"): (typeof documents)["\n  subscription DashboardChanged($emp: Int!) {\n    dashboardChanged(emp: $emp)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Menu {\n    menu {\n      label\n      icon\n      program {\n        ...ProgramFields\n      }\n      children {\n        label\n        icon\n        program {\n          ...ProgramFields\n        }\n        children {\n          label\n          icon\n          program {\n            ...ProgramFields\n          }\n          children {\n            label\n            icon\n            program {\n              ...ProgramFields\n            }\n          }\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query Menu {\n    menu {\n      label\n      icon\n      program {\n        ...ProgramFields\n      }\n      children {\n        label\n        icon\n        program {\n          ...ProgramFields\n        }\n        children {\n          label\n          icon\n          program {\n            ...ProgramFields\n          }\n          children {\n            label\n            icon\n            program {\n              ...ProgramFields\n            }\n          }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ToggleFavorite($programId: Int!) {\n    toggleFavorite(programId: $programId) {\n      ...ProgramFields\n    }\n  }\n"): (typeof documents)["\n  mutation ToggleFavorite($programId: Int!) {\n    toggleFavorite(programId: $programId) {\n      ...ProgramFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription MessagesChanged($emp: Int!) {\n    messagesChanged(emp: $emp)\n  }\n"): (typeof documents)["\n  subscription MessagesChanged($emp: Int!) {\n    messagesChanged(emp: $emp)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription Notifications {\n    notifications {\n      id\n      message\n      createdAt\n      kind\n      link\n    }\n  }\n"): (typeof documents)["\n  subscription Notifications {\n    notifications {\n      id\n      message\n      createdAt\n      kind\n      link\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ResourceMetaFields on ResourceMeta {\n    name\n    path\n    title\n    program\n    key\n    companyColumn\n    labelField\n    labelLength\n    defaultOrder\n    fields {\n      name\n      label\n      kind\n      required\n      editable\n      length\n      min\n      max\n      mask\n      searchable\n      reference\n      options {\n        value\n        text\n      }\n      uploadTypes\n      width\n      inList\n      inForm\n      defaultValue\n    }\n    groups {\n      title\n      framed\n      width\n      fields\n    }\n    document {\n      key\n      dateField\n      breadcrumbs\n      blockStock\n      status {\n        field\n        open\n        labels {\n          value\n          text\n          tone\n        }\n      }\n      totals {\n        name\n        label\n      }\n      lines {\n        resource\n        kind\n        title\n        itemName\n        key\n        parent\n        seq\n        item\n        desc\n        unitName\n        qty\n        price\n        discount\n        total\n        cost\n        editable\n        lockedBy\n      }\n      children {\n        resource\n        title\n        parent\n      }\n    }\n    actions {\n      name\n      method\n      path\n      label\n      confirm {\n        title\n        text\n        ok\n      }\n      openWhen\n      unless\n      params {\n        name\n        source {\n          from\n          value\n        }\n      }\n      body {\n        name\n        source {\n          from\n          value\n        }\n      }\n      dialog\n      dialogTitle\n      opens\n      primary\n      permission\n      download\n    }\n  }\n"): (typeof documents)["\n  fragment ResourceMetaFields on ResourceMeta {\n    name\n    path\n    title\n    program\n    key\n    companyColumn\n    labelField\n    labelLength\n    defaultOrder\n    fields {\n      name\n      label\n      kind\n      required\n      editable\n      length\n      min\n      max\n      mask\n      searchable\n      reference\n      options {\n        value\n        text\n      }\n      uploadTypes\n      width\n      inList\n      inForm\n      defaultValue\n    }\n    groups {\n      title\n      framed\n      width\n      fields\n    }\n    document {\n      key\n      dateField\n      breadcrumbs\n      blockStock\n      status {\n        field\n        open\n        labels {\n          value\n          text\n          tone\n        }\n      }\n      totals {\n        name\n        label\n      }\n      lines {\n        resource\n        kind\n        title\n        itemName\n        key\n        parent\n        seq\n        item\n        desc\n        unitName\n        qty\n        price\n        discount\n        total\n        cost\n        editable\n        lockedBy\n      }\n      children {\n        resource\n        title\n        parent\n      }\n    }\n    actions {\n      name\n      method\n      path\n      label\n      confirm {\n        title\n        text\n        ok\n      }\n      openWhen\n      unless\n      params {\n        name\n        source {\n          from\n          value\n        }\n      }\n      body {\n        name\n        source {\n          from\n          value\n        }\n      }\n      dialog\n      dialogTitle\n      opens\n      primary\n      permission\n      download\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ResourceMetas {\n    resourceMetas {\n      ...ResourceMetaFields\n    }\n  }\n"): (typeof documents)["\n  query ResourceMetas {\n    resourceMetas {\n      ...ResourceMetaFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ResourceMeta($name: String!) {\n    resourceMeta(name: $name) {\n      ...ResourceMetaFields\n    }\n  }\n"): (typeof documents)["\n  query ResourceMeta($name: String!) {\n    resourceMeta(name: $name) {\n      ...ResourceMetaFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ResourceList($name: String!, $emp: Int!, $input: ListInput) {\n    resourceList(name: $name, emp: $emp, input: $input) {\n      rows\n      total\n    }\n  }\n"): (typeof documents)["\n  query ResourceList($name: String!, $emp: Int!, $input: ListInput) {\n    resourceList(name: $name, emp: $emp, input: $input) {\n      rows\n      total\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ResourceGet($name: String!, $emp: Int!, $id: JSON!) {\n    resourceGet(name: $name, emp: $emp, id: $id)\n  }\n"): (typeof documents)["\n  query ResourceGet($name: String!, $emp: Int!, $id: JSON!) {\n    resourceGet(name: $name, emp: $emp, id: $id)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ResourceCreate($name: String!, $emp: Int!, $data: JSON!) {\n    resourceCreate(name: $name, emp: $emp, data: $data)\n  }\n"): (typeof documents)["\n  mutation ResourceCreate($name: String!, $emp: Int!, $data: JSON!) {\n    resourceCreate(name: $name, emp: $emp, data: $data)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ResourceUpdate($name: String!, $emp: Int!, $id: JSON!, $data: JSON!) {\n    resourceUpdate(name: $name, emp: $emp, id: $id, data: $data)\n  }\n"): (typeof documents)["\n  mutation ResourceUpdate($name: String!, $emp: Int!, $id: JSON!, $data: JSON!) {\n    resourceUpdate(name: $name, emp: $emp, id: $id, data: $data)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ResourceDelete($name: String!, $emp: Int!, $id: JSON!) {\n    resourceDelete(name: $name, emp: $emp, id: $id)\n  }\n"): (typeof documents)["\n  mutation ResourceDelete($name: String!, $emp: Int!, $id: JSON!) {\n    resourceDelete(name: $name, emp: $emp, id: $id)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ResourceAction($name: String!, $action: String!, $params: JSON!, $body: JSON) {\n    resourceAction(name: $name, action: $action, params: $params, body: $body)\n  }\n"): (typeof documents)["\n  mutation ResourceAction($name: String!, $action: String!, $params: JSON!, $body: JSON) {\n    resourceAction(name: $name, action: $action, params: $params, body: $body)\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;