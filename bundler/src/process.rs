//! Turning one source file (and, recursively, the files of its `mod x;` declarations) into the
//! text that goes into the bundle: cfg-false code removed, cfg attributes of kept code removed,
//! `mod x;` replaced by `mod x { <file> }`, doc comments and comments stripped on request.

use std::ops::Range;
use std::path::{Path, PathBuf};

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use syn::parse::Parser;
use syn::spanned::Spanned;
use syn::visit::{self, Visit};
use syn::{Attribute, Item, ItemMod, Meta};

use crate::cfg::CfgSet;
use crate::edit::Edits;
use crate::refs::{scan_refs, CrateRef};
use crate::resolve::ModDir;

/// What to keep and what to strip.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub cfg: CfgSet,
    pub strip_docs: bool,
    pub strip_comments: bool,
    /// Indent the bundle with tabs (see `indent_with_tabs`).
    pub tabs: bool,
}

/// The bundle text of one file module and what it needs from elsewhere in the crate.
#[derive(Clone, Debug, Default)]
pub struct Processed {
    /// The file's text after every edit, its submodules inlined.
    pub text: String,
    /// `crate::x` (and `super::` chains reaching the root) found in kept code.
    pub refs: Vec<CrateRef>,
    /// Every source file that went in, in order.
    pub files: Vec<PathBuf>,
}

/// Edits and findings for one source text.
pub struct FileCtx<'a> {
    pub path: PathBuf,
    pub source: &'a str,
    pub opts: &'a Options,
    pub edits: Edits,
    pub refs: Vec<CrateRef>,
    pub files: Vec<PathBuf>,
}

/// Read, parse and process the file module at `path`. `None` when the file's own `#![cfg(...)]`
/// is false (the module is not in the build at all).
pub fn process_file(
    path: &Path,
    mod_rs: bool,
    depth: usize,
    opts: &Options,
) -> Result<Option<Processed>, String> {
    let source = read_source(path)?;
    let file = parse_file(path, &source)?;
    let mut ctx = FileCtx::new(path, &source, opts);
    ctx.files.push(path.to_path_buf());
    for attr in &file.attrs {
        if !ctx.attribute(attr)? {
            return Ok(None);
        }
    }
    let dir = ModDir::for_file(path, mod_rs);
    for item in &file.items {
        ctx.item(item, &dir, depth)?;
    }
    let deleted = ctx.edits.deleted();
    scan_refs(file.to_token_stream(), depth, &deleted, path, &mut ctx.refs)?;
    ctx.finish(&file.to_token_stream()).map(Some)
}

/// Read a source file without its byte-order mark (syn would drop it and shift every span).
pub fn read_source(path: &Path) -> Result<String, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

/// Parse `source`, reporting a syntax error as `file:line:column: message`.
pub fn parse_file(path: &Path, source: &str) -> Result<syn::File, String> {
    if source.starts_with("#!") && !source.starts_with("#![") {
        return Err(format!(
            "{}:1: a shebang line in a module file",
            path.display()
        ));
    }
    syn::parse_file(source).map_err(|e| {
        let at = e.span().start();
        format!(
            "{}:{}:{}: cannot parse: {e}",
            path.display(),
            at.line,
            at.column + 1
        )
    })
}

/// The byte range of anything with tokens (attributes included).
pub fn byte_range(node: &impl Spanned) -> Range<usize> {
    node.span().byte_range()
}

fn line_of(span: Span) -> usize {
    span.start().line
}

/// The outer attributes at the front of a node's tokens (works for every node kind).
fn outer_attrs(node: &impl ToTokens) -> Vec<Attribute> {
    let parser = |input: syn::parse::ParseStream| {
        let attrs = input.call(Attribute::parse_outer)?;
        input.parse::<TokenStream>()?;
        Ok(attrs)
    };
    parser.parse2(node.to_token_stream()).unwrap_or_default()
}

fn path_attr(attrs: &[Attribute]) -> Result<Option<String>, String> {
    let Some(attr) = attrs.iter().find(|a| a.path().is_ident("path")) else {
        return Ok(None);
    };
    if let Meta::NameValue(nv) = &attr.meta {
        if let syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) = &nv.value
        {
            return Ok(Some(s.value()));
        }
    }
    Err(format!(
        "line {}: #[path] must be #[path = \"file\"]",
        line_of(attr.span())
    ))
}

impl<'a> FileCtx<'a> {
    pub fn new(path: &Path, source: &'a str, opts: &'a Options) -> FileCtx<'a> {
        FileCtx {
            path: path.to_path_buf(),
            source,
            opts,
            edits: Edits::default(),
            refs: Vec::new(),
            files: Vec::new(),
        }
    }

    fn at(&self, span: Span, message: impl std::fmt::Display) -> String {
        format!("{}:{}: {message}", self.path.display(), line_of(span))
    }

    /// Decide one attribute: false when it is a cfg that removes its item. Records the edit that
    /// drops the attribute itself when it must not reach the bundle.
    pub fn attribute(&mut self, attr: &Attribute) -> Result<bool, String> {
        let range = byte_range(attr);
        if attr.path().is_ident("cfg") {
            let pred: Meta = attr
                .parse_args()
                .map_err(|e| self.at(attr.span(), format!("malformed #[cfg]: {e}")))?;
            let keep = self
                .opts
                .cfg
                .eval(&pred)
                .map_err(|e| self.at(attr.span(), e))?;
            if keep {
                self.edits.delete(range);
            }
            return Ok(keep);
        }
        if attr.path().is_ident("cfg_attr") {
            self.cfg_attr(attr)?;
        } else if attr.path().is_ident("doc") && self.opts.strip_docs {
            self.edits.delete(range);
        }
        Ok(true)
    }

    /// `#[cfg_attr(pred, a, b)]` becomes `#[a, b]` when pred holds and disappears otherwise.
    fn cfg_attr(&mut self, attr: &Attribute) -> Result<(), String> {
        let list = attr
            .meta
            .require_list()
            .map_err(|e| self.at(attr.span(), format!("malformed #[cfg_attr]: {e}")))?;
        let parts = list
            .parse_args_with(
                syn::punctuated::Punctuated::<Meta, syn::Token![,]>::parse_separated_nonempty,
            )
            .map_err(|e| self.at(attr.span(), format!("malformed #[cfg_attr]: {e}")))?;
        let mut parts = parts.into_iter();
        let pred = parts
            .next()
            .ok_or_else(|| self.at(attr.span(), "empty #[cfg_attr]"))?;
        let keep = self
            .opts
            .cfg
            .eval(&pred)
            .map_err(|e| self.at(attr.span(), e))?;
        let range = byte_range(attr);
        let rest: Vec<Meta> = parts.collect();
        if !keep || rest.is_empty() {
            self.edits.delete(range);
            return Ok(());
        }
        let start = byte_range(&rest[0]).start;
        let end = byte_range(rest.last().unwrap()).end;
        let bang = if matches!(attr.style, syn::AttrStyle::Inner(_)) {
            "!"
        } else {
            ""
        };
        let text = format!("#{bang}[{}]", &self.source[start..end]);
        self.edits.replace(range, text);
        Ok(())
    }

    /// Decide a node from its outer attributes: false (and the node deleted) when a cfg is false.
    pub fn keep(&mut self, node: &(impl ToTokens + Spanned)) -> Result<bool, String> {
        self.keep_range(node, byte_range(node))
    }

    /// As `keep`, deleting `range` (the node and, say, its trailing comma) when it goes.
    pub fn keep_range(
        &mut self,
        node: &impl ToTokens,
        range: Range<usize>,
    ) -> Result<bool, String> {
        for attr in outer_attrs(node) {
            if !self.attribute(&attr)? {
                self.edits.delete(range);
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// One module-level item; `mod` items recurse with the right directory.
    pub fn item(&mut self, item: &Item, dir: &ModDir, depth: usize) -> Result<(), String> {
        if !self.keep(item)? {
            return Ok(());
        }
        match item {
            Item::Mod(module) => self.module(module, dir, depth),
            _ => {
                let mut walker = Walker {
                    ctx: self,
                    error: None,
                };
                visit::visit_item(&mut walker, item);
                walker.error.map_or(Ok(()), Err)
            }
        }
    }

    /// A `mod` item whose cfg already holds: recurse into an inline body, or inline the file.
    pub fn module(&mut self, module: &ItemMod, dir: &ModDir, depth: usize) -> Result<(), String> {
        let name = module.ident.to_string();
        let path = path_attr(&module.attrs).map_err(|e| format!("{}: {e}", self.path.display()))?;
        if let Some((_, items)) = &module.content {
            for attr in module
                .attrs
                .iter()
                .filter(|a| matches!(a.style, syn::AttrStyle::Inner(_)))
            {
                if !self.attribute(attr)? {
                    self.edits.delete(byte_range(module));
                    return Ok(());
                }
            }
            let inner = dir.inline_module(&name, path.as_deref());
            for item in items {
                self.item(item, &inner, depth + 1)?;
            }
            return Ok(());
        }
        let exists = |p: &Path| p.is_file();
        let (file, mod_rs) = dir
            .resolve(&name, path.as_deref(), &exists)
            .map_err(|e| self.at(module.span(), e))?;
        match process_file(&file, mod_rs, depth + 1, self.opts)? {
            None => self.edits.delete(byte_range(module)),
            Some(done) => {
                for attr in module.attrs.iter().filter(|a| a.path().is_ident("path")) {
                    self.edits.delete(byte_range(attr));
                }
                let semi = module.semi.expect("a mod without body has a semicolon");
                let text = format!(
                    " {{\n// ---- {} ----\n{}\n}}",
                    file.display(),
                    done.text.trim_end()
                );
                self.edits.replace(byte_range(&semi), text);
                self.refs.extend(done.refs);
                self.files.extend(done.files);
            }
        }
        Ok(())
    }

    /// Strip comments if asked, apply the edits and hand back the result.
    pub fn finish(mut self, tokens: &TokenStream) -> Result<Processed, String> {
        if self.opts.strip_comments {
            for range in comment_ranges(self.source, tokens) {
                self.edits.delete(range);
            }
        }
        let text = self
            .edits
            .apply(self.source)
            .map_err(|e| format!("{}: {e}", self.path.display()))?;
        Ok(Processed {
            text,
            refs: self.refs,
            files: self.files,
        })
    }
}

/// The byte ranges between tokens: whitespace and plain comments only (doc comments are tokens).
pub fn gaps(source: &str, tokens: &TokenStream) -> Vec<Range<usize>> {
    fn flatten(tokens: &TokenStream, out: &mut Vec<Range<usize>>) {
        for tree in tokens.clone() {
            match tree {
                proc_macro2::TokenTree::Group(g) => {
                    out.push(g.span_open().byte_range());
                    flatten(&g.stream(), out);
                    out.push(g.span_close().byte_range());
                }
                other => out.push(other.span().byte_range()),
            }
        }
    }
    let mut spans = Vec::new();
    flatten(tokens, &mut spans);
    spans.push(source.len()..source.len());
    let mut found = Vec::new();
    let mut cursor = 0;
    for span in spans {
        if span.start > cursor {
            found.push(cursor..span.start);
        }
        cursor = cursor.max(span.end);
    }
    found
}

/// The plain comments: the non-blank part of each gap between tokens.
pub fn comment_ranges(source: &str, tokens: &TokenStream) -> Vec<Range<usize>> {
    let mut found = Vec::new();
    for gap_range in gaps(source, tokens) {
        let gap = &source[gap_range.clone()];
        let lead = gap.len() - gap.trim_start().len();
        let trail = gap.len() - gap.trim_end().len();
        if lead == gap.len() {
            continue;
        }
        let mut start = gap_range.start + lead;
        let end = gap_range.end - trail;
        // A comment ending its line takes the spaces before it along.
        if gap[gap.len() - trail..].starts_with('\n') || gap_range.end == source.len() {
            let kept = source[..start].trim_end_matches([' ', '\t']);
            if !kept.ends_with('\n') && !kept.is_empty() {
                start = kept.len();
            }
        }
        found.push(start..end);
    }
    found
}

/// Re-indent with one tab per 4 leading spaces, touching only whitespace between tokens (never the
/// inside of a string literal), to save characters while keeping the layout readable.
pub fn indent_with_tabs(text: &str) -> Result<String, String> {
    let tokens: TokenStream = text
        .parse()
        .map_err(|e| format!("the bundle does not tokenize: {e}"))?;
    let mut out = String::with_capacity(text.len());
    let mut cursor = 0;
    for gap in gaps(text, &tokens) {
        out.push_str(&text[cursor..gap.start]);
        let mut lines = text[gap.clone()].split('\n');
        out.push_str(lines.next().unwrap_or_default());
        for line in lines {
            let body = line.trim_start_matches(' ');
            let spaces = line.len() - body.len();
            out.push('\n');
            out.extend(std::iter::repeat_n('\t', spaces / 4));
            out.extend(std::iter::repeat_n(' ', spaces % 4));
            out.push_str(body);
        }
        cursor = gap.end;
    }
    out.push_str(&text[cursor..]);
    Ok(out)
}

/// Walks the inside of a kept item: removes cfg-false nested items, impl items, fields, variants,
/// match arms and statements, and folds `cfg!(...)` to `true`/`false`.
struct Walker<'c, 'a> {
    ctx: &'c mut FileCtx<'a>,
    error: Option<String>,
}

impl Walker<'_, '_> {
    fn keep(&mut self, node: &(impl ToTokens + Spanned)) -> bool {
        self.keep_range(node, byte_range(node))
    }

    fn keep_range(&mut self, node: &impl ToTokens, range: Range<usize>) -> bool {
        if self.error.is_some() {
            return false;
        }
        match self.ctx.keep_range(node, range) {
            Ok(keep) => keep,
            Err(e) => {
                self.error = Some(e);
                false
            }
        }
    }
}

impl<'ast> Walker<'_, '_> {
    /// Elements of a comma-separated list (fields, variants, struct literal fields): a removed
    /// element takes its comma with it.
    fn punctuated<T: ToTokens + Spanned, P: ToTokens + Spanned>(
        &mut self,
        list: &'ast syn::punctuated::Punctuated<T, P>,
        mut inner: impl FnMut(&mut Self, &'ast T),
    ) {
        for pair in list.pairs() {
            let (value, punct) = pair.into_tuple();
            let mut range = byte_range(value);
            if let Some(punct) = punct {
                range.end = byte_range(punct).end;
            }
            if self.keep_range(value, range) {
                inner(self, value);
            }
        }
    }
}

impl<'ast> Visit<'ast> for Walker<'_, '_> {
    fn visit_item(&mut self, node: &'ast Item) {
        if self.keep(node) {
            visit::visit_item(self, node);
        }
    }
    fn visit_impl_item(&mut self, node: &'ast syn::ImplItem) {
        if self.keep(node) {
            visit::visit_impl_item(self, node);
        }
    }
    fn visit_trait_item(&mut self, node: &'ast syn::TraitItem) {
        if self.keep(node) {
            visit::visit_trait_item(self, node);
        }
    }
    fn visit_foreign_item(&mut self, node: &'ast syn::ForeignItem) {
        if self.keep(node) {
            visit::visit_foreign_item(self, node);
        }
    }
    fn visit_fields_named(&mut self, node: &'ast syn::FieldsNamed) {
        self.punctuated(&node.named, visit::visit_field);
    }
    fn visit_fields_unnamed(&mut self, node: &'ast syn::FieldsUnnamed) {
        self.punctuated(&node.unnamed, visit::visit_field);
    }
    fn visit_item_enum(&mut self, node: &'ast syn::ItemEnum) {
        self.visit_generics(&node.generics);
        self.punctuated(&node.variants, visit::visit_variant);
    }
    fn visit_expr_struct(&mut self, node: &'ast syn::ExprStruct) {
        self.visit_path(&node.path);
        self.punctuated(&node.fields, visit::visit_field_value);
        if let Some(rest) = &node.rest {
            self.visit_expr(rest);
        }
    }
    fn visit_arm(&mut self, node: &'ast syn::Arm) {
        if self.keep(node) {
            visit::visit_arm(self, node);
        }
    }
    fn visit_stmt(&mut self, node: &'ast syn::Stmt) {
        // Items go through visit_item; the other statements carry their attributes in front.
        if matches!(node, syn::Stmt::Item(_)) || self.keep(node) {
            visit::visit_stmt(self, node);
        }
    }
    fn visit_macro(&mut self, node: &'ast syn::Macro) {
        let reads_a_file = ["include_str", "include_bytes", "include"]
            .iter()
            .any(|name| node.path.is_ident(name));
        if reads_a_file && self.error.is_none() {
            let message = "reads a file at compile time; a CodinGame bundle must be one file";
            self.error = Some(self.ctx.at(node.span(), message));
        }
        if self.error.is_none() && node.path.is_ident("cfg") {
            let folded = node
                .parse_body::<Meta>()
                .map_err(|e| e.to_string())
                .and_then(|pred| self.ctx.opts.cfg.eval(&pred));
            match folded {
                Ok(value) => self.ctx.edits.replace(byte_range(node), value.to_string()),
                Err(e) => self.error = Some(self.ctx.at(node.span(), format!("cfg!: {e}"))),
            }
        }
        visit::visit_macro(self, node);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tabs_keep_tokens_and_string_contents() {
        let text = "fn f() {\n    let s = \"a\n        b\";\n    /* x\n     y */\n        g(1,\n          2);\n}\n";
        let tabbed = indent_with_tabs(text).unwrap();
        assert_eq!(
            tabbed,
            "fn f() {\n\tlet s = \"a\n        b\";\n\t/* x\n\t y */\n\t\tg(1,\n\t\t  2);\n}\n"
        );
        let before: TokenStream = text.parse().unwrap();
        let after: TokenStream = tabbed.parse().unwrap();
        assert_eq!(before.to_string(), after.to_string());
    }

    #[test]
    fn comments_are_found_between_tokens_only() {
        let text = "let a = \"// no\"; // yes\n/* b /* c */ */ let c = '/';\n";
        let tokens: TokenStream = text.parse().unwrap();
        let found: Vec<&str> = comment_ranges(text, &tokens)
            .into_iter()
            .map(|r| &text[r])
            .collect();
        // Both comments share one gap; it goes from the first comment to the end of the last.
        assert_eq!(found, ["// yes\n/* b /* c */ */"]);
        let text = "f(); // end of line\ng();\n";
        let tokens: TokenStream = text.parse().unwrap();
        let found: Vec<&str> = comment_ranges(text, &tokens)
            .into_iter()
            .map(|r| &text[r])
            .collect();
        assert_eq!(found, [" // end of line"], "takes the spaces before it");
    }
}
