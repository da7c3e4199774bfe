//! Register descriptors of messaging: the queue (`whatsapp`, with the send,
//! list, status, pairing, resend and e-mail calls) and the providers' settings
//! (`whatsappconfig`, `emailconfig`).
//! The bell's notifications (`notificacoes`: the caller's list, marking them read).

pub mod messages;
pub mod notifications;
pub mod settings;

use std::sync::Arc;

use erp_platform::resource::Registry;

use crate::Deps;

/// The registers with the instance's settings (the gateway's copy of the
/// descriptors runs no call).
pub fn registry() -> Result<Registry, String> {
    registry_with(Arc::new(Deps::from_env()?))
}

pub fn registry_with(deps: Arc<Deps>) -> Result<Registry, String> {
    Registry::new(vec![
        messages::whatsapp(deps.clone()),
        notifications::notificacoes(),
        settings::whatsappconfig(deps.clone()),
        settings::emailconfig(deps),
    ])
}
