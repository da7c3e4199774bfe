//! NATS JetStream: the `ERP` stream (subjects `erp.>`, file storage, 10-minute
//! duplicate window, 7 days of retention, `ERP_NATS_REPLICAS` replicas) and pull
//! consumers.
//!
//! On a JetStream cluster the client knows every node (`NATS_URL` lists them,
//! comma-separated, and the servers announce the others) and reconnects to a live
//! one. A stream leader lost mid-publish fails the publish (no responders, or a
//! timeout): the outbox relay publishes the rows again with the same
//! `Nats-Msg-Id`, which the new leader drops if the first one got through. A
//! consumer's leader lost takes the pull requests it held with it: the missed
//! heartbeats end the pull subscription, which binds again and asks the new
//! leader (the consumer's state, acknowledged and pending, is replicated).
//!
//! Publishing sends every message of a batch before awaiting any acknowledgement
//! (JetStream keeps the order of one connection's publishes), so a batch of 256
//! costs about one round trip. Consuming keeps a pull subscription that asks the
//! server for messages ahead of need; the consumer loop hands the handler what has
//! arrived, waiting only for the first message of a batch.

use std::time::Duration;

use async_trait::async_trait;
use futures::{FutureExt, StreamExt};
use tokio::task::JoinHandle;

use super::{BatchHandler, Bus, ConsumerOpts, Message, Outcome, STREAM};
use crate::{Error, Result};

/// How long a publish waits for the stream's acknowledgement.
const PUBLISH_ACK_TIMEOUT: Duration = Duration::from_secs(10);

pub struct NatsBus {
    client: async_nats::Client,
    js: async_nats::jetstream::Context,
}

impl NatsBus {
    /// Connects and makes sure the `ERP` stream (subjects `erp.>`) exists, with
    /// one replica.
    pub async fn connect(url: &str) -> Result<NatsBus> {
        NatsBus::connect_replicated(url, 1).await
    }

    /// Connects to `urls` (one server or several, comma-separated) and makes sure
    /// the `ERP` stream exists; created here, it gets `replicas` replicas (an
    /// existing stream keeps its configuration).
    pub async fn connect_replicated(urls: &str, replicas: usize) -> Result<NatsBus> {
        let servers = server_addrs(urls)?;
        let client = async_nats::ConnectOptions::new()
            .retry_on_initial_connect()
            .connection_timeout(Duration::from_secs(5))
            .connect(servers)
            .await
            .map_err(|e| Error::Unavailable(format!("NATS: {e}")))?;
        let js = async_nats::jetstream::new(client.clone());
        js.get_or_create_stream(async_nats::jetstream::stream::Config {
            name: STREAM.into(),
            subjects: vec!["erp.>".into()],
            duplicate_window: Duration::from_secs(600),
            max_age: Duration::from_secs(7 * 24 * 3600),
            storage: async_nats::jetstream::stream::StorageType::File,
            num_replicas: replicas.max(1),
            ..Default::default()
        })
        .await
        .map_err(|e| Error::Unavailable(format!("JetStream: {e}")))?;
        Ok(NatsBus { client, js })
    }

    pub fn client(&self) -> &async_nats::Client {
        &self.client
    }

    /// Deletes durable consumers of the `ERP` stream (a consumer that does not
    /// exist is no error): created again, they start at the oldest retained
    /// message. Answers how many existed.
    pub async fn delete_consumers(&self, durables: &[&str]) -> Result<usize> {
        let stream = self
            .js
            .get_stream(STREAM)
            .await
            .map_err(|e| Error::Unavailable(format!("JetStream: {e}")))?;
        let mut deleted = 0;
        for d in durables {
            if stream.delete_consumer(d).await.is_ok() {
                deleted += 1;
            }
        }
        Ok(deleted)
    }
}

/// The servers of a `NATS_URL`: one URL or several, comma-separated.
fn server_addrs(urls: &str) -> Result<Vec<async_nats::ServerAddr>> {
    let addrs = urls
        .split(',')
        .map(str::trim)
        .filter(|u| !u.is_empty())
        .map(|u| {
            u.parse::<async_nats::ServerAddr>()
                .map_err(|e| Error::validation(format!("NATS_URL {u}: {e}")))
        })
        .collect::<Result<Vec<_>>>()?;
    if addrs.is_empty() {
        return Err(Error::validation("NATS_URL sem servidor"));
    }
    Ok(addrs)
}

fn headers_of(msg: &Message) -> async_nats::HeaderMap {
    let mut headers = async_nats::HeaderMap::new();
    headers.insert("Nats-Msg-Id", msg.id.as_str());
    for (k, v) in &msg.headers {
        headers.insert(k.as_str(), v.as_str());
    }
    headers
}

/// A delivered JetStream message as the handlers see it.
fn message_of(m: &async_nats::jetstream::Message) -> Message {
    let headers: Vec<(String, String)> = m
        .headers
        .as_ref()
        .map(|h| {
            h.iter()
                .flat_map(|(k, vs)| vs.iter().map(move |v| (k.to_string(), v.to_string())))
                .collect()
        })
        .unwrap_or_default();
    let id = headers
        .iter()
        .find(|(k, _)| k == "Nats-Msg-Id")
        .map(|(_, v)| v.clone())
        .unwrap_or_default();
    Message {
        id,
        subject: m.subject.to_string(),
        headers,
        payload: m.payload.clone(),
        delivery: m.info().map(|i| i.delivered as u64).unwrap_or(1),
    }
}

#[async_trait]
impl Bus for NatsBus {
    async fn publish_all(&self, msgs: Vec<Message>) -> Vec<Result<()>> {
        let mut pending = Vec::with_capacity(msgs.len());
        for msg in msgs {
            let sent = self
                .js
                .publish_with_headers(msg.subject.clone(), headers_of(&msg), msg.payload.clone())
                .await
                .map_err(|e| Error::Unavailable(format!("publish: {e}")));
            pending.push(sent);
        }
        let acks = pending.into_iter().map(|sent| async move {
            let ack = sent?;
            match tokio::time::timeout(PUBLISH_ACK_TIMEOUT, ack).await {
                Err(_) => Err(Error::Unavailable("publish ack timeout".into())),
                Ok(Err(e)) => Err(Error::Unavailable(format!("publish ack: {e}"))),
                Ok(Ok(_)) => Ok(()),
            }
        });
        futures::future::join_all(acks).await
    }

    async fn subscribe_batch(
        &self,
        durable: &str,
        filter: &str,
        opts: ConsumerOpts,
        handler: BatchHandler,
    ) -> Result<JoinHandle<()>> {
        use async_nats::jetstream::consumer::{pull, AckPolicy};
        let stream = self
            .js
            .get_stream(STREAM)
            .await
            .map_err(|e| Error::Unavailable(format!("stream: {e}")))?;
        let consumer = stream
            .get_or_create_consumer(
                durable,
                pull::Config {
                    durable_name: Some(durable.to_string()),
                    filter_subject: filter.to_string(),
                    ack_policy: AckPolicy::Explicit,
                    ack_wait: opts.ack_wait,
                    max_ack_pending: (opts.max_batch * 8).max(1000) as i64,
                    ..Default::default()
                },
            )
            .await
            .map_err(|e| Error::Unavailable(format!("consumer: {e}")))?;
        let max = opts.max_batch.max(1);
        let prefetch = max.max(64);
        let mut messages = open(&consumer, prefetch)
            .await
            .map_err(|e| Error::Unavailable(format!("consumer: {e}")))?;
        let durable = durable.to_string();
        let gauge = lag_gauge(stream.clone(), durable.clone());
        let consume = async move {
            loop {
                let first = match messages.next().await {
                    Some(Ok(m)) => m,
                    Some(Err(e)) => match messages.next().now_or_never() {
                        // Heartbeats "missed" while the handler was busy: what
                        // arrived meanwhile is there.
                        Some(Some(Ok(m))) => m,
                        _ => {
                            // Missed heartbeats, no responders, a failed pull: the
                            // server or the consumer's leader (on a cluster) is
                            // gone with the pull requests it held. Ask again, of
                            // whoever leads the consumer now.
                            tracing::warn!(consumer = %durable, error = %e, "consumer stream error; binding again");
                            messages = rebind(&stream, &durable, prefetch).await;
                            continue;
                        }
                    },
                    None => {
                        // The pull subscription ended (server restart): bind again.
                        messages = rebind(&stream, &durable, prefetch).await;
                        continue;
                    }
                };
                let mut batch = vec![first];
                // What has already arrived joins the batch; nothing waits for more.
                while batch.len() < max {
                    match messages.next().now_or_never() {
                        Some(Some(Ok(m))) => batch.push(m),
                        _ => break,
                    }
                }
                let msgs: Vec<Message> = batch.iter().map(message_of).collect();
                let outcomes = handler(msgs).await;
                let acks = batch
                    .iter()
                    .zip(outcomes.iter().chain(std::iter::repeat(&Outcome::Retry)))
                    .map(|(m, o)| async move {
                        match o {
                            Outcome::Ack => m.ack().await,
                            Outcome::Retry => {
                                // Back off with the attempts so a database outage
                                // is not hammered.
                                let n = m.info().map(|i| i.delivered).unwrap_or(1).clamp(1, 10);
                                let delay = Duration::from_millis(250 * n as u64);
                                m.ack_with(async_nats::jetstream::AckKind::Nak(Some(delay)))
                                    .await
                            }
                        }
                    });
                for r in futures::future::join_all(acks).await {
                    if let Err(e) = r {
                        tracing::warn!(consumer = %durable, error = %e, "ack failed");
                    }
                }
            }
        };
        // The gauge lives and stops with the consumer.
        Ok(tokio::spawn(async move {
            tokio::select! {
                _ = consume => {}
                _ = gauge => {}
            }
        }))
    }

    async fn ping(&self) -> Result<()> {
        match self.client.connection_state() {
            async_nats::connection::State::Connected => Ok(()),
            s => Err(Error::Unavailable(format!("NATS {s:?}"))),
        }
    }

    fn kind(&self) -> &'static str {
        "nats"
    }
}

/// The pull subscription, asking the server for up to `prefetch` messages ahead.
async fn open(
    c: &async_nats::jetstream::consumer::Consumer<async_nats::jetstream::consumer::pull::Config>,
    prefetch: usize,
) -> std::result::Result<
    async_nats::jetstream::consumer::pull::Stream,
    async_nats::jetstream::consumer::StreamError,
> {
    c.stream()
        .max_messages_per_batch(prefetch)
        .heartbeat(Duration::from_secs(5))
        .expires(Duration::from_secs(30))
        .messages()
        .await
}

/// A new pull subscription of `durable`, once its stream and consumer answer
/// (every 500 ms until then).
async fn rebind(
    stream: &async_nats::jetstream::stream::Stream,
    durable: &str,
    prefetch: usize,
) -> async_nats::jetstream::consumer::pull::Stream {
    use async_nats::jetstream::consumer::pull;
    loop {
        tokio::time::sleep(Duration::from_millis(500)).await;
        match stream.get_consumer::<pull::Config>(durable).await {
            Ok(c) => match open(&c, prefetch).await {
                Ok(s) => return s,
                Err(e) => tracing::warn!(consumer = %durable, error = %e, "rebind failed"),
            },
            Err(e) => tracing::warn!(consumer = %durable, error = %e, "rebind failed"),
        }
    }
}

/// Pending messages per consumer, for the consumer-lag gauge.
async fn lag_gauge(stream: async_nats::jetstream::stream::Stream, durable: String) {
    loop {
        match stream.consumer_info(&durable).await {
            Ok(i) => metrics::gauge!("erp_consumer_lag", "consumer" => durable.clone())
                .set((i.num_pending + i.num_ack_pending as u64) as f64),
            Err(e) => tracing::debug!(error = %e, "consumer info"),
        }
        tokio::time::sleep(Duration::from_secs(10)).await;
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn nats_url_lists_one_server_or_several() {
        assert_eq!(
            super::server_addrs("nats://a:4222").map(|v| v.len()).ok(),
            Some(1)
        );
        let three = super::server_addrs("nats://a:4311, nats://b:4312,nats://c:4313")
            .expect("three servers");
        let hosts: Vec<_> = three
            .iter()
            .map(|a| (a.host().to_string(), a.port()))
            .collect();
        assert_eq!(
            hosts,
            [
                ("a".to_string(), 4311),
                ("b".to_string(), 4312),
                ("c".to_string(), 4313)
            ]
        );
        assert!(super::server_addrs(" , ").is_err());
    }
}
