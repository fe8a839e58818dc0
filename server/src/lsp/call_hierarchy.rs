//! `textDocument/prepareCallHierarchy`, `callHierarchy/incomingCalls` and
//! `callHierarchy/outgoingCalls`: conversions around the analysis' call
//! hierarchy. An item comes back from the client as it was sent; the
//! analysis finds it again by its file and the start of its name.

use super::backend::Backend;
use super::convert::{self, FileLines};
use super::snapshot::Snapshot;
use puppet_ide::call_hierarchy::HierarchyCall;
use puppet_ide::{FilePosition, NavigationTarget};
use tower_lsp_server::jsonrpc::{self, Result};
use tower_lsp_server::lsp_types::*;

pub async fn prepare(
    b: &Backend,
    params: CallHierarchyPrepareParams,
) -> Result<Option<Vec<CallHierarchyItem>>> {
    b.on_workspace_snapshot("textDocument/prepareCallHierarchy", move |snap| {
        let pos = snap.file_position(&params.text_document_position_params)?;
        let items: Vec<CallHierarchyItem> = snap
            .analysis
            .prepare_call_hierarchy(&pos)?
            .iter()
            .filter_map(|target| item(snap, target))
            .collect();
        Ok((!items.is_empty()).then_some(items))
    })
    .await
}

pub async fn incoming(
    b: &Backend,
    params: CallHierarchyIncomingCallsParams,
) -> Result<Option<Vec<CallHierarchyIncomingCall>>> {
    b.on_workspace_snapshot("callHierarchy/incomingCalls", move |snap| {
        let pos = item_position(snap, &params.item)?;
        let calls = snap.analysis.incoming_calls(&pos)?;
        Ok(Some(
            calls
                .iter()
                .filter_map(|call| {
                    Some(CallHierarchyIncomingCall {
                        from: item(snap, &call.item)?,
                        from_ranges: ranges(snap, &call.item.path, call)?,
                    })
                })
                .collect(),
        ))
    })
    .await
}

pub async fn outgoing(
    b: &Backend,
    params: CallHierarchyOutgoingCallsParams,
) -> Result<Option<Vec<CallHierarchyOutgoingCall>>> {
    b.on_workspace_snapshot("callHierarchy/outgoingCalls", move |snap| {
        let pos = item_position(snap, &params.item)?;
        let calls = snap.analysis.outgoing_calls(&pos)?;
        Ok(Some(
            calls
                .iter()
                .filter_map(|call| {
                    Some(CallHierarchyOutgoingCall {
                        to: item(snap, &call.item)?,
                        from_ranges: ranges(snap, &pos.path, call)?,
                    })
                })
                .collect(),
        ))
    })
    .await
}

/// A definition (or a file's top level) as a hierarchy item.
fn item(snap: &Snapshot, target: &NavigationTarget) -> Option<CallHierarchyItem> {
    let index = snap.line_index(&target.path)?;
    Some(CallHierarchyItem {
        name: target.name.clone(),
        kind: convert::symbol_kind(target.kind),
        tags: None,
        detail: Some(target.path.display().to_string()),
        uri: convert::path_to_uri(&target.path)?,
        range: convert::range(&index, target.full_range, snap.encoding),
        selection_range: convert::range(&index, target.focus_range, snap.encoding),
        data: None,
    })
}

/// Where an item's name starts.
fn item_position(snap: &Snapshot, item: &CallHierarchyItem) -> Result<FilePosition> {
    snap.file_position(&TextDocumentPositionParams {
        text_document: TextDocumentIdentifier::new(item.uri.clone()),
        position: item.selection_range.start,
    })
    .map_err(|_| jsonrpc::Error::invalid_params("unknown call hierarchy item"))
}

/// The call sites of a call, in the file they are in.
fn ranges(snap: &Snapshot, path: &std::path::Path, call: &HierarchyCall) -> Option<Vec<Range>> {
    let index = snap.line_index(path)?;
    Some(
        call.ranges
            .iter()
            .map(|&r| convert::range(&index, r, snap.encoding))
            .collect(),
    )
}
