import { graphql } from '../../generated';

export const NotificationsDocument = graphql(`
  subscription Notifications {
    notifications {
      id
      message
      createdAt
      kind
      link
    }
  }
`);
