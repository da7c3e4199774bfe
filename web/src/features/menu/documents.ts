import { graphql } from '../../generated';

export const MenuDocument = graphql(`
  query Menu {
    menu {
      label
      icon
      program {
        ...ProgramFields
      }
      children {
        label
        icon
        program {
          ...ProgramFields
        }
        children {
          label
          icon
          program {
            ...ProgramFields
          }
          children {
            label
            icon
            program {
              ...ProgramFields
            }
          }
        }
      }
    }
  }
`);

export const ToggleFavoriteDocument = graphql(`
  mutation ToggleFavorite($programId: Int!) {
    toggleFavorite(programId: $programId) {
      ...ProgramFields
    }
  }
`);
