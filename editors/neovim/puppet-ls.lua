-- puppet-ls for Neovim's built-in LSP client.
--
-- Paste this into your init.lua (or save it as ~/.config/nvim/plugin/puppet-ls.lua).
-- It works on Neovim 0.7 and later: 0.11+ uses vim.lsp.config/vim.lsp.enable,
-- older versions start the client from a FileType autocommand.

-- The server's configuration object (the same shape as the VS Code settings).
local puppet_ls_settings = {
  modulePaths = {},                -- extra module directories, e.g. { '/etc/puppetlabs/code/modules' }
  diagnostics = { ignore = {} },   -- diagnostic codes not to report, e.g. { 'legacy-fact' }
  puppetVersion = 'auto',          -- '7', '8', or 'auto': what metadata.json or the Gemfile requires, else 8
}
-- The command: `puppet-ls` must be on PATH, or put its full path here.
-- Add '--log-level', 'debug' to see the server's log in :LspLog (stderr).
local puppet_ls_cmd = { 'puppet-ls', 'lsp' }
-- The project root: the first of these markers found upward from the file, in this order,
-- so a control repository wins over the module inside it.
local puppet_ls_root_markers = { 'environment.conf', 'Puppetfile', 'metadata.json', '.git' }

-- File types: .pp is `puppet`, .epp is `epuppet` (the names Vim's runtime files use).
vim.filetype.add({ extension = { pp = 'puppet', epp = 'epuppet' } })
if vim.fn.has('nvim-0.8') == 0 then
  -- Neovim 0.7 only reads vim.filetype.add() with g:do_filetype_lua set: detect by autocommand.
  vim.api.nvim_create_autocmd({ 'BufRead', 'BufNewFile' }, {
    pattern = { '*.pp', '*.epp' },
    group = vim.api.nvim_create_augroup('puppet_ls_filetype', { clear = true }),
    callback = function(args)
      vim.bo[args.buf].filetype = args.file:match('%.epp$') and 'epuppet' or 'puppet'
    end,
  })
end

local puppet_ls_filetypes = { 'puppet', 'epuppet', 'yaml', 'json' }

-- Of YAML and JSON buffers only Hiera's files (hiera.yaml and files under data/ or hieradata/)
-- and modules' metadata.json.
local function puppet_ls_wanted(file)
  if not (file:match('%.ya?ml$') or file:match('%.eyaml$') or file:match('%.json$')) then
    return true
  end
  return file:match('/hiera%.yaml$') ~= nil or file:match('/data/') ~= nil or file:match('/hieradata/') ~= nil
    or file:match('/metadata%.json$') ~= nil
end

-- Key maps in Puppet buffers (Neovim 0.10+ maps K to hover by itself; the rest are common choices).
local function puppet_ls_keys(bufnr)
  local opts = { buffer = bufnr }
  vim.keymap.set('n', 'K', vim.lsp.buf.hover, opts)
  vim.keymap.set('n', 'gd', vim.lsp.buf.definition, opts)
  vim.keymap.set('n', '[d', vim.diagnostic.goto_prev, opts)
  vim.keymap.set('n', ']d', vim.diagnostic.goto_next, opts)
end

if vim.lsp.config ~= nil and vim.lsp.enable ~= nil then
  -- Neovim 0.11 and later.
  vim.lsp.config('puppet_ls', {
    cmd = puppet_ls_cmd,
    filetypes = puppet_ls_filetypes,
    root_dir = function(bufnr, on_dir)
      local file = vim.api.nvim_buf_get_name(bufnr)
      if puppet_ls_wanted(file) then
        on_dir(vim.fs.root(bufnr, puppet_ls_root_markers) or vim.fs.dirname(file))
      end
    end,
    init_options = puppet_ls_settings,
    settings = { ['puppet-ls'] = puppet_ls_settings },
  })
  vim.lsp.enable('puppet_ls')
  vim.api.nvim_create_autocmd('LspAttach', {
    group = vim.api.nvim_create_augroup('puppet_ls_keys', { clear = true }),
    callback = function(args)
      local client = vim.lsp.get_client_by_id(args.data.client_id)
      if client ~= nil and client.name == 'puppet_ls' then
        puppet_ls_keys(args.buf)
      end
    end,
  })
else
  -- Neovim 0.7 to 0.10.
  local function find_root(file)
    local dir = vim.fn.fnamemodify(file, ':p:h')
    for _, marker in ipairs(puppet_ls_root_markers) do
      local current = dir
      while true do
        if vim.loop.fs_stat(current .. '/' .. marker) ~= nil then
          return current
        end
        local parent = vim.fn.fnamemodify(current, ':h')
        if parent == current then
          break
        end
        current = parent
      end
    end
    return dir
  end

  local client_ids = {} -- root directory -> client id (Neovim 0.7 has no vim.lsp.start)

  vim.api.nvim_create_autocmd('FileType', {
    pattern = puppet_ls_filetypes,
    group = vim.api.nvim_create_augroup('puppet_ls', { clear = true }),
    callback = function(args)
      local file = vim.api.nvim_buf_get_name(args.buf)
      if file == '' or not puppet_ls_wanted(file) then
        return
      end
      local root = find_root(file)
      local config = {
        name = 'puppet_ls',
        cmd = puppet_ls_cmd,
        root_dir = root,
        init_options = puppet_ls_settings,
        settings = { ['puppet-ls'] = puppet_ls_settings },
      }
      if vim.lsp.start ~= nil then
        -- 0.8 to 0.10: reuses a running client with the same name and root.
        vim.lsp.start(config, { bufnr = args.buf })
        puppet_ls_keys(args.buf)
        return
      end
      local id = client_ids[root]
      if id == nil or vim.lsp.get_client_by_id(id) == nil then
        config.workspace_folders = { { uri = vim.uri_from_fname(root), name = root } }
        id = vim.lsp.start_client(config)
        client_ids[root] = id
      end
      if id ~= nil then
        vim.lsp.buf_attach_client(args.buf, id)
        puppet_ls_keys(args.buf)
      end
    end,
  })
end
