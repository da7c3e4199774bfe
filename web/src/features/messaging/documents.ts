import { graphql } from '../../generated';

/** The company's message queue moved (queued, sent, delivered, read, failed): ask it again. */
export const MessagesChangedDocument = graphql(`
  subscription MessagesChanged($emp: Int!) {
    messagesChanged(emp: $emp)
  }
`);
