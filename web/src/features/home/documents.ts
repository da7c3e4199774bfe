import { graphql } from '../../generated';

/** The names of the dashboard calls whose figures moved for company `emp` (pushed after an order is invoiced). */
export const DashboardChangedDocument = graphql(`
  subscription DashboardChanged($emp: Int!) {
    dashboardChanged(emp: $emp)
  }
`);
