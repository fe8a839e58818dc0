;;; load-test.el --- Batch check of puppet-ls.el  -*- lexical-binding: t; -*-
;; emacs --batch -l editors/emacs/test/load-test.el
;; Loads puppet-ls.el, opens the fixture files and checks the modes, then loads eglot and
;; lsp-mode when they are installed and checks that puppet-ls is registered with each.

(require 'cl-lib)
(package-initialize)
(defvar puppet-ls-test--dir (file-name-directory (or load-file-name buffer-file-name)))
(defvar puppet-ls-test--failures 0)
(defvar puppet-ls-test--passes 0)

(defun puppet-ls-test--check (name ok)
  (if ok
      (setq puppet-ls-test--passes (1+ puppet-ls-test--passes))
    (setq puppet-ls-test--failures (1+ puppet-ls-test--failures)))
  (message "  %s %s" (if ok "ok  " "FAIL") name))

(load (expand-file-name "../puppet-ls.el" puppet-ls-test--dir) nil t)
(defvar puppet-ls-test--fixture (expand-file-name "../../neovim/test/fixture/demo/" puppet-ls-test--dir))

(with-current-buffer (find-file-noselect (expand-file-name "manifests/init.pp" puppet-ls-test--fixture))
  (puppet-ls-test--check ".pp opens in puppet-mode or the fallback mode"
                         (memq major-mode '(puppet-mode puppet-ls-fallback-mode)))
  (puppet-ls-test--check "# starts a comment" (progn (goto-char (point-min)) (nth 4 (syntax-ppss (+ (point) 3)))))
  (font-lock-ensure)
  (goto-char (point-min))
  (search-forward "$port")
  (puppet-ls-test--check "a variable is highlighted"
                         (or (not (eq major-mode 'puppet-ls-fallback-mode))
                             (eq (get-text-property (1- (point)) 'face) 'font-lock-variable-name-face)))
  (when (eq major-mode 'puppet-ls-fallback-mode)
    (let ((before (buffer-string)))
      (indent-region (point-min) (point-max))
      (puppet-ls-test--check "the fixture is already indented as the fallback mode indents"
                             (string= before (buffer-string))))))

(with-temp-buffer
  (setq buffer-file-name (expand-file-name "templates/x.epp" puppet-ls-test--fixture))
  (set-auto-mode)
  (puppet-ls-test--check ".epp opens in puppet-ls-epp-mode" (eq major-mode 'puppet-ls-epp-mode))
  (setq buffer-file-name nil))

(puppet-ls-test--check "Hiera's files are recognised"
                       (and (puppet-ls--hiera-file-p "/site/hiera.yaml")
                            (puppet-ls--hiera-file-p "/site/data/nodes/web01.yaml")
                            (puppet-ls--hiera-file-p "/site/modules/ntp/data/common.json")
                            (puppet-ls--hiera-file-p "/site/modules/ntp/metadata.json")))
(puppet-ls-test--check "other YAML files are not"
                       (not (or (puppet-ls--hiera-file-p "/site/.gitlab-ci.yml")
                                (puppet-ls--hiera-file-p "/site/data/notes.txt")
                                (puppet-ls--hiera-file-p "/site/package.json"))))

(when (require 'eglot nil t)
  (with-temp-buffer
    (setq buffer-file-name "/site/data/common.yaml")
    (setq major-mode 'yaml-mode)
    (let ((puppet-ls-eglot-auto-start nil) (puppet-ls-lsp-mode-auto-start nil))
      (puppet-ls--maybe-start-hiera))
    (puppet-ls-test--check "a Hiera file maps its mode to puppet-ls for eglot, buffer-locally"
                           (and (local-variable-p 'eglot-server-programs)
                                (eq (cdr (assq 'yaml-mode eglot-server-programs))
                                    #'puppet-ls--eglot-contact)))
    (setq buffer-file-name nil))
  (puppet-ls-test--check "other buffers keep eglot's own YAML server"
                         (not (eq (cdr (assq 'yaml-mode (default-value 'eglot-server-programs)))
                                  #'puppet-ls--eglot-contact))))

(if (not (require 'eglot nil t))
    (message "  skip eglot is not installed")
  (let ((entry (cl-find-if (lambda (e) (and (consp (car e)) (memq 'puppet-ls-fallback-mode (car e))))
                           eglot-server-programs)))
    (puppet-ls-test--check "eglot-server-programs has puppet-ls" entry)
    (let ((contact (and entry (funcall (cdr entry)))))
      (puppet-ls-test--check "the eglot contact runs `puppet-ls lsp'"
                             (equal (cl-subseq contact 0 2) '("puppet-ls" "lsp")))
      (puppet-ls-test--check "the eglot contact sends the configuration as initializationOptions"
                             (equal (funcall (plist-get (cddr contact) :initializationOptions) nil)
                                    puppet-ls-configuration)))
    (puppet-ls-test--check "the EPP language id is puppet-epp"
                           (member '(puppet-ls-epp-mode :language-id "puppet-epp") (car entry)))
    (puppet-ls-test--check "the configuration JSON has the server's shape"
                           (equal (json-encode puppet-ls-configuration)
                                  "{\"modulePaths\":[],\"diagnostics\":{\"ignore\":[]},\"puppetVersion\":\"auto\"}"))))

(if (not (require 'lsp-mode nil t))
    (message "  skip lsp-mode is not installed")
  (let ((client (gethash 'puppet-ls lsp-clients)))
    (puppet-ls-test--check "lsp-mode has the puppet-ls client" client)
    (puppet-ls-test--check "the lsp-mode client serves the fallback and EPP modes"
                           (and client (memq 'puppet-ls-epp-mode (lsp--client-major-modes client))
                                (memq 'puppet-ls-fallback-mode (lsp--client-major-modes client))))
    (puppet-ls-test--check "lsp-mode knows the language ids"
                           (equal (alist-get 'puppet-ls-epp-mode lsp-language-id-configuration) "puppet-epp"))))

(message "emacs: %d passed, %d failed" puppet-ls-test--passes puppet-ls-test--failures)
(kill-emacs (if (zerop puppet-ls-test--failures) 0 1))
