;;; puppet-ls.el --- Use the puppet-ls language server from Emacs  -*- lexical-binding: t; -*-

;; Licensed under the Apache License, Version 2.0.

;;; Commentary:

;; Configuration for puppet-ls, the Puppet language server, with either LSP client:
;;
;;  - eglot (built into Emacs 29+, a package for older Emacs): M-x eglot in a Puppet buffer,
;;    or let `eglot-ensure' start it (see `puppet-ls-eglot-auto-start').
;;  - lsp-mode: M-x lsp, or `lsp-deferred' from the mode hooks
;;    (see `puppet-ls-lsp-mode-auto-start').
;;
;; Files: .pp opens in `puppet-mode' when that package is installed, else in the small
;; `puppet-ls-fallback-mode' defined here (comments, strings, variables, keywords,
;; indentation by braces). .epp opens in `puppet-ls-epp-mode'.
;;
;; Load it from your init file:
;;   (load "/path/to/puppet-ls/editors/emacs/puppet-ls.el")
;; or copy the parts you need.

;;; Code:

(defgroup puppet-ls nil
  "The puppet-ls language server."
  :group 'languages
  :prefix "puppet-ls-")

(defcustom puppet-ls-command '("puppet-ls" "lsp")
  "The command that starts the server.
`puppet-ls' must be on `exec-path', or give the full path of the binary.
Add \"--log-level\" \"debug\" to see more of the server's log."
  :type '(repeat string))

(defcustom puppet-ls-configuration
  '(:modulePaths [] :diagnostics (:ignore []) :puppetVersion "auto")
  "The server's configuration object, as a plist in the JSON shape eglot uses.
:modulePaths is a vector of extra module directories, :diagnostics :ignore a vector of
diagnostic codes not to report; :puppetVersion the Puppet whose verdicts are given: \"7\", \"8\",
or \"auto\" (what the project's metadata.json or Gemfile requires, else 8).  :strict and
:strictVariables set Puppet's settings of those names where puppet.conf changes them."
  :type 'sexp)

(defcustom puppet-ls-eglot-auto-start nil
  "Non-nil: start eglot in every Puppet buffer."
  :type 'boolean)

(defcustom puppet-ls-lsp-mode-auto-start nil
  "Non-nil: start lsp-mode in every Puppet buffer."
  :type 'boolean)

(defcustom puppet-ls-indent-offset 2
  "Indentation of `puppet-ls-fallback-mode'."
  :type 'integer)

;;;; A minimal major mode for when puppet-mode is not installed.

(defconst puppet-ls--keywords
  '("and" "apply" "attr" "case" "class" "default" "define" "else" "elsif" "function"
    "if" "in" "inherits" "node" "or" "plan" "private" "type" "unless"))

(defconst puppet-ls--font-lock-keywords
  `((,(concat "\\_<" (regexp-opt puppet-ls--keywords t) "\\_>") . font-lock-keyword-face)
    ("\\_<\\(true\\|false\\|undef\\)\\_>" . font-lock-constant-face)
    ("\\$\\(?:::\\)?[a-z_][A-Za-z0-9_]*\\(?:::[a-z_][A-Za-z0-9_]*\\)*" . font-lock-variable-name-face)
    ("\\_<\\(?:::\\)?[A-Z][A-Za-z0-9_]*\\(?:::[A-Z][A-Za-z0-9_]*\\)*" . font-lock-type-face)
    ("\\_<\\(class\\|define\\|function\\|plan\\)\\s-+\\([a-z][a-z0-9_:]*\\)"
     (2 font-lock-function-name-face))
    ("\\_<\\([a-z][a-z0-9_]*\\)\\s-*=>" (1 font-lock-builtin-face)))
  "Highlighting of `puppet-ls-fallback-mode'.")

(defvar puppet-ls-fallback-mode-syntax-table
  (let ((table (make-syntax-table)))
    (modify-syntax-entry ?# "<" table)
    (modify-syntax-entry ?\n ">" table)
    (modify-syntax-entry ?/ ". 14" table)
    (modify-syntax-entry ?* ". 23" table)
    (modify-syntax-entry ?' "\"" table)
    (modify-syntax-entry ?\" "\"" table)
    (modify-syntax-entry ?\\ "\\" table)
    (modify-syntax-entry ?_ "_" table)
    (modify-syntax-entry ?: "_" table)
    (modify-syntax-entry ?$ "'" table)
    table)
  "Syntax table of `puppet-ls-fallback-mode'.")

(defun puppet-ls--indent-line ()
  "Indent the current line by the depth of open brackets."
  (let* ((depth (save-excursion (car (syntax-ppss (line-beginning-position)))))
         (closing (save-excursion
                    (back-to-indentation)
                    (looking-at-p "[]})]")))
         (column (* puppet-ls-indent-offset (max 0 (- depth (if closing 1 0)))))
         (offset (- (current-column) (current-indentation))))
    (indent-line-to column)
    (when (> offset 0) (forward-char offset))))

(define-derived-mode puppet-ls-fallback-mode prog-mode "Puppet"
  "A minimal mode for Puppet manifests, used when `puppet-mode' is not installed."
  :syntax-table puppet-ls-fallback-mode-syntax-table
  (setq-local comment-start "# ")
  (setq-local comment-start-skip "#+\\s-*")
  (setq-local font-lock-defaults '(puppet-ls--font-lock-keywords))
  (setq-local indent-line-function #'puppet-ls--indent-line))

(define-derived-mode puppet-ls-epp-mode text-mode "EPP"
  "Puppet EPP templates: text with <% %> tags."
  (setq-local comment-start "<%# ")
  (setq-local comment-end " %>")
  (setq-local font-lock-defaults
              '((("<%[-=#]?\\||?-?%>" . font-lock-preprocessor-face)
                 ("\\$\\(?:::\\)?[a-z_][A-Za-z0-9_]*\\(?:::[a-z_][A-Za-z0-9_]*\\)*"
                  . font-lock-variable-name-face)))))

(defun puppet-ls--manifest-mode ()
  "The major mode for .pp files: `puppet-mode' if installed, else the fallback."
  (if (fboundp 'puppet-mode) 'puppet-mode 'puppet-ls-fallback-mode))

(defun puppet-ls-manifest-mode ()
  "Turn on `puppet-mode' if it is installed, else `puppet-ls-fallback-mode'."
  (interactive)
  (funcall (puppet-ls--manifest-mode)))

(add-to-list 'auto-mode-alist '("\\.pp\\'" . puppet-ls-manifest-mode))
(add-to-list 'auto-mode-alist '("\\.epp\\'" . puppet-ls-epp-mode))

(defconst puppet-ls-modes '(puppet-mode puppet-ls-fallback-mode puppet-ls-epp-mode)
  "The major modes puppet-ls serves.")

(defun puppet-ls--hiera-file-p (file)
  "Whether FILE is one of Hiera's (hiera.yaml or a file under data/ or hieradata/)
or a module's metadata.json."
  (and file
       (string-match-p "\\.\\(ya?ml\\|eyaml\\|json\\)\\'" file)
       (or (string-match-p "/hiera\\.yaml\\'" file)
           (string-match-p "/\\(hiera\\)?data/" file)
           (string-match-p "/metadata\\.json\\'" file))))

;;;; eglot

(defun puppet-ls--eglot-contact (&optional _interactive)
  "The eglot contact: `puppet-ls-command' and the configuration as initializationOptions."
  (append puppet-ls-command
          (list :initializationOptions (lambda (_server) puppet-ls-configuration))))

(with-eval-after-load 'eglot
  (defvar eglot-server-programs)
  (add-to-list 'eglot-server-programs
               `((puppet-mode puppet-ls-fallback-mode
                  (puppet-ls-epp-mode :language-id "puppet-epp"))
                 . ,#'puppet-ls--eglot-contact))
  ;; Sent in workspace/didChangeConfiguration; the server reads the object under "puppet-ls".
  (defvar eglot-workspace-configuration)
  (when (listp (default-value 'eglot-workspace-configuration))
    (setq-default eglot-workspace-configuration
                  (plist-put (copy-sequence (default-value 'eglot-workspace-configuration))
                             :puppet-ls puppet-ls-configuration))))

(defun puppet-ls--maybe-start ()
  "Start the LSP client chosen by `puppet-ls-eglot-auto-start' or `puppet-ls-lsp-mode-auto-start'."
  (cond ((and puppet-ls-eglot-auto-start (fboundp 'eglot-ensure)) (eglot-ensure))
        ((and puppet-ls-lsp-mode-auto-start (fboundp 'lsp-deferred)) (lsp-deferred))))

(dolist (hook '(puppet-mode-hook puppet-ls-fallback-mode-hook puppet-ls-epp-mode-hook))
  (add-hook hook #'puppet-ls--maybe-start))

(defun puppet-ls--maybe-start-hiera ()
  "In one of Hiera's YAML or JSON files, use puppet-ls and maybe start it.
For eglot the mapping is buffer-local, so other YAML files keep their server."
  (when (puppet-ls--hiera-file-p buffer-file-name)
    (when (boundp 'eglot-server-programs)
      (setq-local eglot-server-programs
                  (cons (cons major-mode #'puppet-ls--eglot-contact)
                        (default-value 'eglot-server-programs))))
    (puppet-ls--maybe-start)))

(dolist (hook '(yaml-mode-hook yaml-ts-mode-hook json-mode-hook json-ts-mode-hook js-json-mode-hook))
  (add-hook hook #'puppet-ls--maybe-start-hiera))

;;;; lsp-mode

(with-eval-after-load 'lsp-mode
  (declare-function lsp-register-client "lsp-mode")
  (declare-function make-lsp-client "lsp-mode")
  (declare-function lsp-stdio-connection "lsp-mode")
  (defvar lsp-language-id-configuration)
  (add-to-list 'lsp-language-id-configuration '(puppet-mode . "puppet"))
  (add-to-list 'lsp-language-id-configuration '(puppet-ls-fallback-mode . "puppet"))
  (add-to-list 'lsp-language-id-configuration '(puppet-ls-epp-mode . "puppet-epp"))
  (lsp-register-client
   (make-lsp-client
    :new-connection (lsp-stdio-connection (lambda () puppet-ls-command))
    ;; Puppet's modes, and Hiera's YAML and JSON files (not every YAML file).
    :activation-fn (lambda (file mode)
                     (or (memq mode puppet-ls-modes) (puppet-ls--hiera-file-p file)))
    :major-modes puppet-ls-modes
    :initialization-options (lambda () puppet-ls-configuration)
    :priority 1
    :server-id 'puppet-ls)))

(provide 'puppet-ls)
;;; puppet-ls.el ends here
