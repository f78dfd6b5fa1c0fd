//! Assembling the bundle: the crate root with only the selected top-level modules, each inlined,
//! and a `main` that starts the game.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use quote::ToTokens;
use syn::Item;

use crate::process::{byte_range, parse_file, FileCtx, Options, Processed};
use crate::refs::{scan_refs, CrateRef};
use crate::resolve::ModDir;

/// Everything the bundle is made from.
#[derive(Clone, Debug)]
pub struct Config {
    /// The crate root, e.g. `src/lib.rs`.
    pub root: PathBuf,
    /// Top-level modules to keep, e.g. `penguins`, `search`.
    pub modules: Vec<String>,
    /// Path (from the crate root) of the function `main` calls, e.g. `penguins::codingame_main`.
    pub entry: String,
    /// Also keep the top-level modules the kept ones use (otherwise such a use is an error).
    pub auto_deps: bool,
    /// Modules that may never be pulled in, even with `auto_deps`.
    pub exclude: Vec<String>,
    pub options: Options,
}

/// The bundle and what went into it.
#[derive(Clone, Debug)]
pub struct Bundle {
    pub text: String,
    /// Kept top-level modules with their source files and size in characters.
    pub modules: Vec<ModuleReport>,
    /// Modules pulled in by `auto_deps`, with the first use that required them.
    pub pulled_in: Vec<CrateRef>,
}

#[derive(Clone, Debug)]
pub struct ModuleReport {
    pub name: String,
    pub files: Vec<PathBuf>,
    pub chars: usize,
}

/// One top-level module of the root, processed on its own so it can be left out.
struct TopModule {
    range: std::ops::Range<usize>,
    /// Edits on the root text (cfg, inlining) and findings; an error stays here until the module is
    /// actually selected, so broken modules the bundle does not need do not stop it.
    unit: Result<(crate::edit::Edits, Processed), String>,
}

pub fn bundle(config: &Config) -> Result<Bundle, String> {
    let root = &config.root;
    let source = crate::process::read_source(root).map_err(|e| format!("crate root: {e}"))?;
    let file = parse_file(root, &source)?;
    let opts = &config.options;
    let dir = ModDir::for_file(root, true);

    let mut root_ctx = FileCtx::new(root, &source, opts);
    for attr in &file.attrs {
        if !root_ctx.attribute(attr)? {
            return Err(format!("{}: the crate root is cfg'd out", root.display()));
        }
    }
    let mut tops: BTreeMap<String, TopModule> = BTreeMap::new();
    let mut root_items = BTreeSet::new();
    for item in &file.items {
        match item {
            Item::Mod(module) => {
                let mut ctx = FileCtx::new(root, &source, opts);
                let unit = top_module(&mut ctx, module, &dir).map(|_| {
                    let processed = Processed {
                        text: String::new(),
                        refs: std::mem::take(&mut ctx.refs),
                        files: std::mem::take(&mut ctx.files),
                    };
                    (std::mem::take(&mut ctx.edits), processed)
                });
                let kept_by_cfg = !matches!(&unit, Ok((edits, _)) if edits.deleted().contains(&byte_range(module)));
                if kept_by_cfg {
                    let name = module.ident.to_string();
                    let range = byte_range(module);
                    tops.insert(name, TopModule { range, unit });
                } else if let Ok((edits, _)) = unit {
                    root_ctx.edits.extend(edits);
                }
            }
            other => {
                if let Some(name) = item_name(other) {
                    root_items.insert(name);
                }
                root_ctx.item(other, &dir, 0)?;
            }
        }
    }

    let (selected, pulled_in) = select(config, &tops)?;
    let entry_module = config.entry.split("::").next().unwrap_or_default();
    if !selected.iter().any(|m| m == entry_module) && !root_items.contains(entry_module) {
        return Err(format!(
            "entry `{}` is outside the bundled modules",
            config.entry
        ));
    }

    let mut modules = Vec::new();
    for (name, top) in tops {
        if selected.contains(&name) {
            let (edits, processed) = top.unit?;
            let mut alone = edits.clone();
            alone.delete(0..top.range.start);
            alone.delete(top.range.end..source.len());
            let chars = alone.apply(&source)?.chars().count();
            root_ctx.edits.extend(edits);
            modules.push(ModuleReport {
                name,
                files: processed.files,
                chars,
            });
        } else {
            root_ctx.edits.delete(top.range);
        }
    }
    let body = root_ctx.finish(&file.to_token_stream())?.text;
    let names: Vec<&str> = modules.iter().map(|m| m.name.as_str()).collect();
    let text = format!(
        "// Single-file bundle of {root} (modules: {mods}), made by the `bundler` crate.\n\
         // Generated: edit the sources, not this file.\n\
         #![allow(dead_code)]\n\
         {body}\n\n\
         fn main() {{\n    crate::{entry}();\n}}\n",
        root = root.display(),
        mods = names.join(", "),
        body = body.trim_end(),
        entry = config.entry,
    );
    let text = if opts.tabs {
        crate::process::indent_with_tabs(&text)?
    } else {
        text
    };
    Ok(Bundle {
        text,
        modules,
        pulled_in,
    })
}

/// The requested modules, then (with `auto_deps`) whatever they use, transitively; a use of a
/// module that stays out is an error naming every such use.
fn select(
    config: &Config,
    tops: &BTreeMap<String, TopModule>,
) -> Result<(Vec<String>, Vec<CrateRef>), String> {
    let root = &config.root;
    let mut selected: Vec<String> = Vec::new();
    let mut queue: Vec<String> = Vec::new();
    for name in &config.modules {
        if !tops.contains_key(name) {
            return Err(format!(
                "module `{name}` is not declared in {} (top-level modules: {})",
                root.display(),
                tops.keys().cloned().collect::<Vec<_>>().join(", ")
            ));
        }
        if !selected.contains(name) {
            selected.push(name.clone());
            queue.push(name.clone());
        }
    }
    let mut pulled_in = Vec::new();
    let mut missing = Vec::new();
    while let Some(name) = queue.pop() {
        let (_, processed) = tops[&name].unit.as_ref().map_err(|e| e.clone())?;
        for r in &processed.refs {
            if selected.contains(&r.name) || !tops.contains_key(&r.name) {
                continue;
            }
            if config.auto_deps && !config.exclude.contains(&r.name) {
                selected.push(r.name.clone());
                queue.push(r.name.clone());
                pulled_in.push(r.clone());
            } else {
                missing.push(r.clone());
            }
        }
    }
    if !missing.is_empty() {
        let lines: Vec<String> = missing
            .iter()
            .map(|r| {
                format!(
                    "{}:{}: uses `crate::{}`, a module left out of the bundle",
                    r.file.display(),
                    r.line,
                    r.name
                )
            })
            .collect();
        return Err(lines.join("\n"));
    }
    Ok((selected, pulled_in))
}

/// Process one top-level `mod` item of the root into `ctx` (its own edit list on the root text).
fn top_module(ctx: &mut FileCtx, module: &syn::ItemMod, dir: &ModDir) -> Result<(), String> {
    let item = Item::Mod(module.clone());
    if !ctx.keep(&item)? {
        return Ok(());
    }
    ctx.module(module, dir, 0)?;
    if module.content.is_some() {
        let deleted = ctx.edits.deleted();
        let root = ctx.path.clone();
        scan_refs(module.to_token_stream(), 0, &deleted, &root, &mut ctx.refs)?;
    }
    Ok(())
}

fn item_name(item: &Item) -> Option<String> {
    let ident = match item {
        Item::Const(i) => &i.ident,
        Item::Enum(i) => &i.ident,
        Item::Fn(i) => &i.sig.ident,
        Item::Static(i) => &i.ident,
        Item::Struct(i) => &i.ident,
        Item::Trait(i) => &i.ident,
        Item::Type(i) => &i.ident,
        Item::Union(i) => &i.ident,
        Item::Macro(i) => i.ident.as_ref()?,
        _ => return None,
    };
    Some(ident.to_string())
}

/// Character count against CodinGame's limit.
pub fn size_line(text: &str, limit: usize) -> (usize, String) {
    let chars = text.chars().count();
    let verdict = if chars <= limit { "ok" } else { "TOO LARGE" };
    let line = format!(
        "size: {chars} characters of {limit} allowed ({:.1}%): {verdict}",
        100.0 * chars as f64 / limit as f64
    );
    (chars, line)
}
